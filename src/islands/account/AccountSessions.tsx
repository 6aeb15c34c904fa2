// "Where you're signed in" on the dashboard (docs/product/accounts.md#sessions): the user's sessions, Sign out
// for one, and "Sign out everywhere else". Each asks first (use-confirm); the list is read again after every
// change, and after a password change (reloadKey), which ends the other sessions.
import { listMySessions, signOutOtherSessions, signOutSession, type SessionItem } from '../../lib/api/account-security.ts';
import { Message } from '../ui/Message.tsx';
import type { Confirm } from '../ui/use-confirm.tsx';
import { SessionList, sessionLabel } from './SessionList.tsx';
import { useSessionList } from './use-session-list.ts';

export const SESSION_LIST_MESSAGES = {
  loadFailed: 'Your sessions could not be loaded. Please reload the page.',
  signedOut: (label: string) => `${label} has been signed out.`,
  othersSignedOut: 'Every other session has been signed out.',
  failed: 'That did not work. Please try again.',
} as const;

export function AccountSessions({ confirm, reloadKey }: { confirm: Confirm; reloadKey: number }) {
  const { sessions, failed, message, act: run } = useSessionList(listMySessions, reloadKey);
  const act = (call: () => Promise<void>, done: string) => run(call, { done, failed: SESSION_LIST_MESSAGES.failed });

  const signOutOne = async (session: SessionItem) => {
    const label = sessionLabel(session);
    const ok = await confirm({ title: 'Sign out', message: `Sign out ${label}? That browser will need the password again.`, confirmLabel: 'Sign out' });
    if (ok) await act(() => signOutSession(session.id), SESSION_LIST_MESSAGES.signedOut(label));
  };

  const signOutOthers = async () => {
    const ok = await confirm({
      title: 'Sign out everywhere else',
      message: 'Sign out every other browser and device? Only this one stays signed in.',
      confirmLabel: 'Sign out everywhere else',
    });
    if (ok) await act(signOutOtherSessions, SESSION_LIST_MESSAGES.othersSignedOut);
  };

  const others = sessions?.filter((session) => !session.current).length ?? 0;
  return (
    <section className="card account-section" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="card__title">
        Where you’re signed in
      </h2>
      {failed && <p className="form-message__text form-message__text--error">{SESSION_LIST_MESSAGES.loadFailed}</p>}
      {sessions === null ? (
        !failed && <p className="empty-note">Loading your sessions…</p>
      ) : (
        <SessionList sessions={sessions} onSignOut={(session) => void signOutOne(session)} />
      )}
      {others > 0 && (
        <div className="dashboard__actions account-section__actions">
          <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => void signOutOthers()}>
            Sign out everywhere else
          </button>
        </div>
      )}
      <Message message={message} />
    </section>
  );
}
