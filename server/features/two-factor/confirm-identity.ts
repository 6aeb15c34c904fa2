// The one check that the person at the keyboard is the account's owner, for actions a stolen session must
// not be enough for (deleting the account, DELETE /api/user/account; docs/product/accounts.md#your-data).
// A signed-in session proves only that someone holds the cookie: these actions ask again for the password
// and, when the user has two-factor sign-in on, a current code.
import type { AppContext } from '../../context.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import type { User } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { acceptSecondFactor } from './second-factor.ts';

export const CONFIRM_IDENTITY_MESSAGES = {
  wrongPassword: 'The password is incorrect.',
  codeRequired: 'Enter the code from your authenticator app or a recovery code.',
  wrongCode: 'The code is not valid.',
} as const;

export interface IdentityProof {
  password: string;
  /** A current two-factor code; required only for users with two-factor sign-in on. */
  code?: string | undefined;
}

/**
 * Resolves when the proof holds; throws HttpError 422 naming the field (errors.password, errors.code)
 * otherwise. Callers throttle the attempts themselves (createRateLimiter) before calling, so parallel
 * guesses cannot slip past the limit.
 */
export async function confirmIdentity(ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'mailer' | 'log'>, user: User, proof: IdentityProof): Promise<void> {
  if (!(await verifyPassword(user.password_hash, proof.password))) {
    throw new HttpError(422, CONFIRM_IDENTITY_MESSAGES.wrongPassword, { password: [CONFIRM_IDENTITY_MESSAGES.wrongPassword] });
  }
  if (!user.two_factor_enabled_at) return;
  // The same check as the dashboard's disable call: a code from the app (accepted once) or a recovery
  // code, so whoever lost the phone can still leave.
  const code = proof.code?.trim();
  if (!code) throw new HttpError(422, CONFIRM_IDENTITY_MESSAGES.codeRequired, { code: [CONFIRM_IDENTITY_MESSAGES.codeRequired] });
  if (!acceptSecondFactor(ctx, user, code)) throw new HttpError(422, CONFIRM_IDENTITY_MESSAGES.wrongCode, { code: [CONFIRM_IDENTITY_MESSAGES.wrongCode] });
}
