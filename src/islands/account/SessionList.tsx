// One list of sessions (docs/product/accounts.md#sessions), for the dashboard's "Where you're signed in" and
// the admin's view of a user's sessions: browser and system, "This device", address, signed in, last active,
// and a sign-out button per session. The caller asks for confirmation and makes the call.
import type { SessionItem } from '../../lib/api/account-security.ts';
import { When } from '../ui/When.tsx';

/** What a session is called on buttons and in confirmations. */
export function sessionLabel(session: Pick<SessionItem, 'browser' | 'system'>): string {
  return `${session.browser ?? 'Unknown browser'} on ${session.system ?? 'an unknown system'}`;
}

interface SessionListProps {
  sessions: readonly SessionItem[];
  onSignOut: (session: SessionItem) => void;
  /** The dashboard offers no button on the browser's own session (the nav bar's Logout does that). */
  canSignOutCurrent?: boolean;
}

export function SessionList({ sessions, onSignOut, canSignOutCurrent = false }: SessionListProps) {
  return (
    <ul className="sessions">
      {sessions.map((session) => (
        <li key={session.id} className="sessions__item">
          <div className="sessions__text">
            <span className="sessions__name">
              {sessionLabel(session)}
              {session.current && <span className="sessions__badge">This device</span>}
            </span>
            <span className="sessions__meta">
              Address {session.ip ?? 'unknown'} · signed in <When value={session.created_at} /> · last active <When value={session.last_active_at} />
            </span>
          </div>
          {(!session.current || canSignOutCurrent) && (
            <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => onSignOut(session)}>
              Sign out<span className="sr-only"> {sessionLabel(session)}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
