// A license's History (issue 12, items 5 and 7; issue 24, item 5): a disclosure that loads the license's events
// each time it opens, newest first, in words. The admin's (GET /api/license/{id}/events, with who acted) and
// the owner's (GET /api/user/licenses/{id}/events) differ only in where they load from.
import { useState } from 'react';
import type { LicenseEventLike } from '../../../common/license-history.ts';
import { serverMessage } from './form-errors.ts';
import { LicenseHistoryList } from './LicenseHistoryList.tsx';

type LoadedEvent = LicenseEventLike & { id: number };
type HistoryState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; events: LoadedEvent[] };

export function LicenseHistory({ load }: { load: () => Promise<{ events: LoadedEvent[] }> }) {
  const [state, setState] = useState<HistoryState>({ kind: 'idle' });

  const open = async () => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'loaded', events: (await load()).events });
    } catch (error) {
      setState({ kind: 'failed', message: serverMessage(error) });
    }
  };

  return (
    <details className="license-history" onToggle={(event) => event.currentTarget.open && void open()}>
      <summary>History</summary>
      <div className="license-history__body">
        <p className="license-history__state" role="status" aria-live="polite">
          {state.kind === 'loading' && 'Loading the history…'}
          {state.kind === 'failed' && <span className="form-message__text--error">{state.message}</span>}
          {state.kind === 'loaded' && `${state.events.length} ${state.events.length === 1 ? 'event' : 'events'}, newest first`}
        </p>
        {state.kind === 'loaded' && <LicenseHistoryList events={state.events} />}
      </div>
    </details>
  );
}
