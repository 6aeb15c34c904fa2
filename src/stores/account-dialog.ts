// Which account dialog is open (docs/product/routes.md#navigation-bar): the login/registration modal or the 'Verification sent'
// notice. A store rather than component state because the openers are plain scripts (the nav bar's
// account area, the unverified banner) and islands on other React roots (/email/verified, the reset form).
import { atom } from 'nanostores';
import type { CurrentUser } from './session.ts';

export type AccountDialogMode = 'login' | 'register' | 'verification-sent';

export interface AccountDialogOptions {
  /** Pre-fills the e-mail field (e.g. after a password reset); otherwise opening clears every field. */
  email?: string;
  /**
   * Runs after a successful login instead of the usual move to /admin or /dashboard, for flows that
   * needed a login first and carry on afterwards (re-sending the validation link).
   */
  onLoggedIn?: (user: CurrentUser) => void;
  /** Why the login opened, shown above the form ('Log in to see your dashboard'). */
  note?: string;
}

export interface AccountDialogState extends AccountDialogOptions {
  mode: AccountDialogMode;
  /** Changes with every opening, so opening the same mode again still starts from empty fields. */
  openedAt: number;
}

export const $accountDialog = atom<AccountDialogState | null>(null);

let openings = 0;

export function showAccountDialog(mode: AccountDialogMode, options: AccountDialogOptions = {}): void {
  openings += 1;
  $accountDialog.set({ ...options, mode, openedAt: openings });
}

export function closeAccountDialog(): void {
  $accountDialog.set(null);
}
