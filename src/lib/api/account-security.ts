// The signed-in user's sessions, password and e-mail address (docs/product/api.md#sessions-password-and-e-mail,
// docs/product/accounts.md#sessions, #change-password, #change-e-mail), and the admin's view of a user's
// sessions (docs/admin-api.md#sessions-of-a-user). Answer types are read from the routers (docs/decisions/0021).
import type { emailChangeRoutes } from '../../../server/features/profile/routes.ts';
import type { passwordChangeRoutes } from '../../../server/features/profile/routes.ts';
import type { sessionRoutes } from '../../../server/features/sessions/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type SessionsAnswer = Answer<typeof sessionRoutes, '/', '$get'>;
/** A session as the lists show it: a public id (never the token), browser, system, address and times. */
export type SessionItem = SessionsAnswer['sessions'][number];

// The lists load quietly (their own "Loading…" line); the full-screen modal is for actions.
export const listMySessions = () => api.get<SessionsAnswer>('/api/user/sessions', { loading: false });

/** DELETE /api/user/sessions/{id} (204): that browser is signed out at its next request. */
export async function signOutSession(id: string): Promise<void> {
  await api.delete<unknown>(`/api/user/sessions/${encodeURIComponent(id)}`);
}

/** POST /api/user/sessions/revoke-others (204): every session but this browser's ends. */
export async function signOutOtherSessions(): Promise<void> {
  await api.post<unknown>('/api/user/sessions/revoke-others');
}

export interface PasswordChangeInput {
  current_password: string;
  password: string;
  password_confirmation: string;
}

export const changePassword = (input: PasswordChangeInput) => api.put<Answer<typeof passwordChangeRoutes, '/password', '$put'>>('/api/user/password', input);

/** PUT /api/user/email: mails a link to the new address; nothing changes until it is followed. */
export const requestEmailChange = (input: { email: string; password: string }) =>
  api.put<Answer<typeof emailChangeRoutes, '/email', '$put'>>('/api/user/email', input);

export const listUserSessions = (userId: number) => api.get<SessionsAnswer>(`/api/admin/users/${userId}/sessions`, { loading: false });

export async function endUserSession(userId: number, sessionId: string): Promise<void> {
  await api.delete<unknown>(`/api/admin/users/${userId}/sessions/${encodeURIComponent(sessionId)}`);
}

export async function endAllUserSessions(userId: number): Promise<void> {
  await api.delete<unknown>(`/api/admin/users/${userId}/sessions`);
}
