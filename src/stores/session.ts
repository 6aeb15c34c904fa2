// Client-wide state (docs/product/data-model.md#client-wide-state), shared by every island on a page.
import { atom } from 'nanostores';
import type { PublicUser } from '../../server/auth/public-user.ts';
import type { SessionUser } from '../../server/features/sessions/present.ts';
import type { userRoutes } from '../../server/features/sessions/routes.ts';
import type { Answer } from '../lib/api/route-types.ts';

/** The signed-in user and their licenses, as login and GET /api/user answer: what this store holds. */
export type SessionAnswer = Answer<typeof userRoutes, '/', '$get'>;

/** A license as the server sends it with the user (GET /api/user, login). */
export type LicenseView = SessionAnswer['licenses'][number];

/** The user of login and GET /api/user; other answers that carry the user (a license request) lack the two-factor flag. */
export type CurrentUser = PublicUser & Partial<Pick<SessionUser, 'two_factor_required'>>;

/** undefined: not checked yet; null: checked, nobody logged in. */
export const $user = atom<CurrentUser | null | undefined>(undefined);
export const $licenses = atom<LicenseView[]>([]);
/** The address the dashboard names when a license request fails (SUPPORT_EMAIL or the first admin's). */
export const $supportEmail = atom<string | null>(null);
/**
 * Admins: inbox items nobody has opened yet (docs/product/admin.md#inbox), shown as the nav bar's badge. From the
 * session answer, then from every inbox answer on /admin, so the badge follows what the admin does there.
 */
export const $inboxUnread = atom<number>(0);

export interface SessionState {
  user: CurrentUser;
  licenses: LicenseView[];
  support_email?: string | null;
  inbox_unread?: number | null;
}

export function setSession(answer: SessionState | null): void {
  $user.set(answer?.user ?? null);
  $licenses.set(answer?.licenses ?? []);
  // Answers that carry only the user and licenses (a license request) leave these as they were.
  if (answer === null || answer.support_email !== undefined) $supportEmail.set(answer?.support_email ?? null);
  if (answer === null || answer.inbox_unread !== undefined) $inboxUnread.set(answer?.inbox_unread ?? 0);
}

export function isAdminUser(user: CurrentUser | null | undefined): boolean {
  return user?.role === 'admin';
}

/** An admin who must turn two-factor on first (docs/product/accounts.md#two-factor-sign-in): the admin tools refuse them. */
export function mustEnrollTwoFactor(user: CurrentUser | null | undefined): boolean {
  return isAdminUser(user) && user?.two_factor_required === true;
}

/** Where a signed-in user's own area is: the admin screen, or the dashboard (where an admin who must enrol does so). */
export function accountHomePath(user: CurrentUser): string {
  return isAdminUser(user) && !mustEnrollTwoFactor(user) ? '/admin' : '/dashboard';
}
