// The signed-in user: who it is (after the anti-forgery cookie fetch) and logging out.
import { setSession } from '../../stores/session.ts';
import type { SessionAnswer } from '../../stores/session.ts';
import { api, ApiError, fetchCsrfCookie } from './request.ts';

/** GET /api/user after the CSRF cookie fetch; sets the user store (null when nobody is logged in). */
export async function loadCurrentUser(): Promise<void> {
  try {
    await fetchCsrfCookie();
    const answer = await api.get<SessionAnswer>('/api/user', { loading: false });
    setSession(answer);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) setSession(null);
    else throw error;
  }
}

/**
 * POST /api/auth/logout after the CSRF fetch, then forget the user here. A failure is only logged: the
 * caller sends the user home regardless.
 */
export async function logout(): Promise<void> {
  try {
    await fetchCsrfCookie();
    await api.post('/api/auth/logout', undefined, { loading: false });
  } catch (error) {
    console.error('Logout failed', error);
  } finally {
    setSession(null);
  }
}
