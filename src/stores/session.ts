// Client-wide state (docs/product/data-model.md#client-wide-state), shared by every island on a page.
import { atom } from 'nanostores';
import type { PublicUser } from '../../server/auth/public-user.ts';
import type { SessionAnswer } from '../lib/api/account.ts';

/** A license as the server sends it with the user (GET /api/user, login). */
export type LicenseView = SessionAnswer['licenses'][number];

export type CurrentUser = PublicUser;

/** undefined: not checked yet; null: checked, nobody logged in. */
export const $user = atom<CurrentUser | null | undefined>(undefined);
export const $licenses = atom<LicenseView[]>([]);

export function setSession(answer: { user: CurrentUser; licenses: LicenseView[] } | null): void {
  $user.set(answer?.user ?? null);
  $licenses.set(answer?.licenses ?? []);
}

export function isAdminUser(user: CurrentUser | null | undefined): boolean {
  return user?.role === 'admin';
}
