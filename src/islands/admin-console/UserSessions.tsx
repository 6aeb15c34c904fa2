// A user's sessions in the admin's Details area (docs/admin-api.md#sessions-of-a-user; issue 13, item 2): the
// same list the user sees, with Sign out per session and "Sign out everywhere" for all of them. Each asks
// first; the list is read again after every change.
import { useCallback } from 'react';
import { endAllUserSessions, endUserSession, listUserSessions, type SessionItem } from '../../lib/api/account-security.ts';
import type { AdminUser } from '../../lib/api/admin.ts';
import { SessionList, sessionLabel } from '../account/SessionList.tsx';
import { useSessionList } from '../account/use-session-list.ts';
import { Message } from '../ui/Message.tsx';
import type { Confirm } from '../ui/use-confirm.tsx';

export function UserSessions({ user, confirm }: { user: AdminUser; confirm: Confirm }) {
  const fetchSessions = useCallback(() => listUserSessions(user.id), [user.id]);
  const { sessions, failed, message, act: run } = useSessionList(fetchSessions);
  const who = user.name || user.email;
  const headingId = `admin-user-sessions-${user.id}`;

  const act = (call: () => Promise<void>, done: string) => run(call, { done, failed: 'The session could not be ended. Please try again.' });

  const endOne = async (session: SessionItem) => {
    const label = sessionLabel(session);
    if (await confirm({ title: 'Sign out', message: `Sign ${who} out of ${label}?`, confirmLabel: 'Sign out' })) {
      await act(() => endUserSession(user.id, session.id), `${who} has been signed out of ${label}.`);
    }
  };

  const endAll = async () => {
    if (await confirm({ title: 'Sign out everywhere', message: `Sign ${who} out of every browser and device?`, confirmLabel: 'Sign out everywhere' })) {
      await act(() => endAllUserSessions(user.id), `${who} has been signed out everywhere.`);
    }
  };

  return (
    <section className="admin-user-sessions" aria-labelledby={headingId}>
      <h3 id={headingId} className="license-card__subheading">
        Sessions
      </h3>
      {failed && <p className="form-message__text form-message__text--error">The sessions could not be loaded.</p>}
      {sessions === null && !failed && <p className="empty-note">Loading sessions…</p>}
      {sessions?.length === 0 && <p className="empty-note">Not signed in anywhere.</p>}
      {sessions && sessions.length > 0 && (
        <>
          <SessionList sessions={sessions} onSignOut={(session) => void endOne(session)} canSignOutCurrent />
          <div className="dashboard__actions account-section__actions">
            <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => void endAll()}>
              Sign out everywhere<span className="sr-only"> ({who})</span>
            </button>
          </div>
        </>
      )}
      <Message message={message} />
    </section>
  );
}
