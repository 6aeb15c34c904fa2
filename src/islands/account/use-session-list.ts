// Loads a list of sessions (the user's own, or a user's for the admin) and reads it again on reload() or
// when `reloadKey` changes. An answer that arrives after the list was left (or re-asked) is dropped.
// `act` runs a sign-out, says how it went and reads the list again: the one way both lists end sessions.
import { useCallback, useEffect, useState } from 'react';
import type { SessionItem, SessionsAnswer } from '../../lib/api/account-security.ts';
import type { FormMessage } from '../ui/form-errors.ts';

export interface SessionListState {
  /** null until the first answer. */
  sessions: readonly SessionItem[] | null;
  failed: boolean;
  reload: () => void;
  /** The outcome of the last `act`, for a polite status line. */
  message: FormMessage | null;
  act: (call: () => Promise<void>, texts: { done: string; failed: string }) => Promise<void>;
}

export function useSessionList(fetchSessions: () => Promise<SessionsAnswer>, reloadKey = 0): SessionListState {
  const [sessions, setSessions] = useState<readonly SessionItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    fetchSessions().then(
      (answer) => {
        if (!current) return;
        setSessions(answer.sessions);
        setFailed(false);
      },
      (error: unknown) => {
        console.error('Loading the sessions failed', error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [fetchSessions, version, reloadKey]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const act = useCallback(
    async (call: () => Promise<void>, texts: { done: string; failed: string }) => {
      setMessage(null);
      try {
        await call();
        setMessage({ text: texts.done, tone: 'success' });
      } catch (error) {
        console.error('Ending a session failed', error);
        setMessage({ text: texts.failed, tone: 'error' });
      }
      reload();
    },
    [reload],
  );
  return { sessions, failed, reload, message, act };
}
