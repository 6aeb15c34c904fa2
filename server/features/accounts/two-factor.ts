// Two-factor sign-in from the dashboard (docs/product/accounts.md#two-factor-sign-in): set up (a secret and its
// QR code, pending until a code confirms it), enable (answers the recovery codes, shown once), disable and
// regenerate the recovery codes (both need the password and a current code). Mounted at /api/user/two-factor;
// an admin who must enrol reaches these like any user (only requireAdmin routes refuse them).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import QRCode from 'qrcode';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { writeTransaction } from '../../db/client.ts';
import { requireUser } from '../../auth/guards.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { encryptSecret } from '../../auth/two-factor-key.ts';
import { matchTotpStep, newTotpSecret, totpUri } from '../../auth/totp.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { sendSafely } from '../../mail/transport.ts';
import { twoFactorDisabledEmail, twoFactorEnabledEmail } from '../../mail/templates.ts';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.ts';
import { acceptSecondFactor, readSecret } from './second-factor.ts';
import { codeField, codeOrRecoveryCodeField, passwordField } from './two-factor-fields.ts';
import { activateTwoFactor, deactivateTwoFactor, getTwoFactorCredential, replaceRecoveryCodes, savePendingSecret } from './two-factor-queries.ts';

export const TWO_FACTOR_MESSAGES = {
  alreadyOn: 'Two-factor sign-in is already on.',
  notOn: 'Two-factor sign-in is not on.',
  noSetup: 'Start the setup again: no two-factor setup is waiting.',
  invalidCode: 'The code is not valid.',
  wrongPassword: 'The password is incorrect.',
  tooMany: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
} as const;

/** Confirmations (enable, disable, regenerate) per user: a stolen session must not guess password or code. */
export const TWO_FACTOR_CONFIRM_THROTTLE = { limit: 10, windowMs: 15 * 60_000 } as const;

const confirmSchema = z.object({ password: passwordField, code: codeOrRecoveryCodeField });

function signedIn(c: Context<AppEnv>): User {
  const user = c.get('user');
  if (!user) throw new Error('requireUser let an anonymous request through');
  return user;
}

export function twoFactorRoutes(ctx: AppContext) {
  const throttle = createRateLimiter({ ...TWO_FACTOR_CONFIRM_THROTTLE, db: ctx.db, name: 'two-factor-confirm', now: ctx.now });
  const nowIso = () => new Date(ctx.now()).toISOString();

  /** A refusal answer when the user has used up their attempts, else null (the attempt is counted). */
  const limited = (c: Context<AppEnv>, user: User) => {
    const decision = throttle.consume(String(user.id));
    if (decision.allowed) return null;
    c.header('Retry-After', String(decision.retryAfterSeconds));
    const message = TWO_FACTOR_MESSAGES.tooMany(decision.retryAfterSeconds);
    return errorResponse(c, 429, message, { code: [message] });
  };

  /** Password and second factor for disable and regenerate: a 422 answer naming the field, or null. */
  const confirmIdentity = async (c: Context<AppEnv>, user: User, input: z.infer<typeof confirmSchema>) => {
    if (!user.two_factor_enabled_at) return errorResponse(c, 409, TWO_FACTOR_MESSAGES.notOn);
    const refused = limited(c, user);
    if (refused) return refused;
    if (!(await verifyPassword(user.password_hash, input.password))) {
      return errorResponse(c, 422, TWO_FACTOR_MESSAGES.wrongPassword, { password: [TWO_FACTOR_MESSAGES.wrongPassword] });
    }
    if (!acceptSecondFactor(ctx, user, input.code)) return errorResponse(c, 422, TWO_FACTOR_MESSAGES.invalidCode, { code: [TWO_FACTOR_MESSAGES.invalidCode] });
    return null;
  };

  /** New recovery codes replace the old ones; the plain codes exist only in this answer. */
  const issueRecoveryCodes = (userId: number): string[] => {
    const codes = newRecoveryCodes();
    replaceRecoveryCodes(ctx.db, userId, codes.map(hashRecoveryCode), nowIso());
    return codes;
  };

  return new Hono<AppEnv>()
    .post('/setup', requireUser, async (c) => {
      const user = signedIn(c);
      if (user.two_factor_enabled_at) return errorResponse(c, 409, TWO_FACTOR_MESSAGES.alreadyOn);
      const secret = newTotpSecret();
      savePendingSecret(ctx.db, user.id, encryptSecret(ctx.config, secret, String(user.id)), nowIso());
      const otpauthUrl = totpUri(secret, { issuer: ctx.config.siteName, account: user.email });
      // Made here, not by an outside service: the secret never leaves this server but to its owner.
      const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return c.json({ secret, otpauth_url: otpauthUrl, qr_svg: qrSvg });
    })
    .post('/enable', requireUser, smallJsonBody(), validate('json', z.object({ code: codeField })), (c) => {
      const user = signedIn(c);
      if (user.two_factor_enabled_at) return errorResponse(c, 409, TWO_FACTOR_MESSAGES.alreadyOn);
      const refused = limited(c, user);
      if (refused) return refused;
      const pending = getTwoFactorCredential(ctx.db, user.id)?.pending_secret;
      if (!pending) return errorResponse(c, 422, TWO_FACTOR_MESSAGES.noSetup, { code: [TWO_FACTOR_MESSAGES.noSetup] });
      const step = matchTotpStep(readSecret(ctx, user.id, pending), c.req.valid('json').code, ctx.now());
      if (step === null) return errorResponse(c, 422, TWO_FACTOR_MESSAGES.invalidCode, { code: [TWO_FACTOR_MESSAGES.invalidCode] });
      const codes = writeTransaction(ctx.db, () => {
        // The confirming code counts as used: it cannot also sign in.
        activateTwoFactor(ctx.db, user.id, { secret: pending, step, atIso: nowIso() });
        return issueRecoveryCodes(user.id);
      });
      void sendSafely(ctx.mailer, { to: user.email, ...twoFactorEnabledEmail(ctx.config, { name: user.name }) }, ctx.log);
      return c.json({ recovery_codes: codes });
    })
    .post('/disable', requireUser, smallJsonBody(), validate('json', confirmSchema), async (c) => {
      const user = signedIn(c);
      const refused = await confirmIdentity(c, user, c.req.valid('json'));
      if (refused) return refused;
      writeTransaction(ctx.db, () => deactivateTwoFactor(ctx.db, user.id, nowIso()));
      void sendSafely(ctx.mailer, { to: user.email, ...twoFactorDisabledEmail(ctx.config, { name: user.name }) }, ctx.log);
      return c.body(null, 204);
    })
    .post('/recovery-codes', requireUser, smallJsonBody(), validate('json', confirmSchema), async (c) => {
      const user = signedIn(c);
      const refused = await confirmIdentity(c, user, c.req.valid('json'));
      if (refused) return refused;
      return c.json({ recovery_codes: writeTransaction(ctx.db, () => issueRecoveryCodes(user.id)) });
    });
}
