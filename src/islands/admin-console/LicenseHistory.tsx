// A license's History on the admin screen (issue 12, items 5 and 7): a disclosure that loads
// GET /api/license/{id}/events each time it opens (newest first: who, what, when).
import { useState } from 'react';
import { listLicenseEvents, type LicenseEvent } from '../../lib/api/admin.ts';
import { serverMessage } from '../ui/form-errors.ts';
import { formatAdminDate } from './dates.ts';
import { actionLabel, actorText, detailText } from './license-events.ts';

type HistoryState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; events: LicenseEvent[] };

function EventList({ events }: { events: LicenseEvent[] }) {
  if (events.length === 0) return null;
  return (
    <ol className="license-history__list">
      {events.map((event) => {
        const detail = detailText(event.detail);
        return (
          <li key={event.id} className="license-history__item">
            <time dateTime={event.created_at}>{formatAdminDate(event.created_at, true) ?? event.created_at}</time> <strong>{actionLabel(event.action)}</strong>{' '}
            by {actorText(event)}
            {detail && <span className="license-history__detail">{detail}</span>}
          </li>
        );
      })}
    </ol>
  );
}

export function LicenseHistory({ licenseId }: { licenseId: number }) {
  const [state, setState] = useState<HistoryState>({ kind: 'idle' });

  const load = async () => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'loaded', events: (await listLicenseEvents(licenseId)).events });
    } catch (error) {
      setState({ kind: 'failed', message: serverMessage(error) });
    }
  };

  return (
    <details className="license-history" onToggle={(event) => event.currentTarget.open && void load()}>
      <summary>History</summary>
      <div className="license-history__body">
        <p className="license-history__state" role="status" aria-live="polite">
          {state.kind === 'loading' && 'Loading the history…'}
          {state.kind === 'failed' && <span className="form-message__text--error">{state.message}</span>}
          {state.kind === 'loaded' && `${state.events.length} ${state.events.length === 1 ? 'event' : 'events'}, newest first`}
        </p>
        {state.kind === 'loaded' && <EventList events={state.events} />}
      </div>
    </details>
  );
}
