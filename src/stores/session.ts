// Client-wide state (docs/product/data-model.md#client-wide-state), shared by every island on a page.
import { atom } from 'nanostores';
import type { PublicUser } from '../../server/auth/public-user.ts';

export interface LicenseView {
  id: number;
  license_type_id: number;
  user_id: number;
  active: number;
  expire: number;
  activated_at: string | null;
  expire_date: string | null;
  license_type: { name: string } | null;
  created_at: string;
  updated_at: string;
}

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
