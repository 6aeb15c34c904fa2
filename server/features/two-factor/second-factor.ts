// Checking a second factor (docs/product/accounts.md#two-factor-sign-in), shared by the login's second step and
// by the dashboard's disable and regenerate calls: a code from the app, accepted once, or a recovery code,
// spent when used (its owner is mailed how many remain).
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { writeTransaction } from '../../db/client.ts';
import { decryptSecret } from '../../auth/secret-box.ts';
import { matchTotpStep } from './totp.ts';
import { sendSafely } from '../../mail/transport.ts';
import { recoveryCodeUsedEmail } from '../../mail/templates.ts';
import { hashRecoveryCode } from './recovery-codes.ts';
import { claimTotpStep, countUnusedRecoveryCodes, getTwoFactorCredential, spendRecoveryCode } from './queries.ts';

type Ctx = Pick<AppContext, 'db' | 'config' | 'now' | 'mailer' | 'log'>;

/** The secret of a setup or of the active credential, decrypted for one check; bound to the user id. */
export function readSecret(ctx: Pick<AppContext, 'config'>, userId: number, stored: string): string {
  return decryptSecret(ctx.config, stored, String(userId));
}

/**
 * True when `code` is the app's code for now (±1 step) and no code of that step or a later one was
 * accepted before: a code seen over someone's shoulder or replayed from a log does not work again.
 */
export function acceptTotpCode(ctx: Ctx, userId: number, code: string): boolean {
  const credential = getTwoFactorCredential(ctx.db, userId);
  if (!credential?.secret) return false;
  const step = matchTotpStep(readSecret(ctx, userId, credential.secret), code, ctx.now());
  return step !== null && claimTotpStep(ctx.db, userId, step);
}

/** Spends a recovery code; on success the owner is told (in the background) how many are left. */
export function acceptRecoveryCode(ctx: Ctx, user: User, code: string): boolean {
  const remaining = writeTransaction(ctx.db, () => {
    if (!spendRecoveryCode(ctx.db, user.id, hashRecoveryCode(code), new Date(ctx.now()).toISOString())) return null;
    return countUnusedRecoveryCodes(ctx.db, user.id);
  });
  if (remaining === null) return false;
  void sendSafely(ctx.mailer, { to: user.email, ...recoveryCodeUsedEmail(ctx.config, { name: user.name, remaining }) }, ctx.log);
  return true;
}

/** Six digits: the app's code; anything else is taken as a recovery code (dashboard calls accept either). */
export function acceptSecondFactor(ctx: Ctx, user: User, code: string): boolean {
  return /^\d{6}$/.test(code) ? acceptTotpCode(ctx, user.id, code) : acceptRecoveryCode(ctx, user, code);
}
