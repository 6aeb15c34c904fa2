// Two-factor sign-in from the dashboard (docs/product/accounts.md#two-factor-sign-in): set up (a secret and its
// QR code, pending until a code confirms it), enable (answers the recovery codes, shown once), disable and
// regenerate the recovery codes (both need the password and a current code). Mounted at /api/user/two-factor;
// an admin who must enrol reaches these like any user (only requireAdmin routes refuse them).
//
// The login's second step (docs/product/accounts.md#two-factor-sign-in). The password step of a user with
// two-factor on creates no session: only a pending login, bound to that browser by an HttpOnly cookie whose
// random token is stored as its SHA-256 (like session tokens), for 5 minutes and 5 tries. POST
// /api/auth/two-factor with a code from the app or a recovery code then completes the login exactly as the
// password alone does for everyone else (completeLogin), so every guard keeps working unchanged.
//
// GET/PUT /api/admin/security-settings (docs/admin-api.md#security-settings): whether admins must use two-factor
// sign-in (docs/product/accounts.md#two-factor-sign-in). Admin only; an admin refused for want of two-factor
// cannot turn the requirement off either.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { loadQrCode } from '../../lazy-libraries.ts';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { writeTransaction } from '../../db/client.ts';
import { requireUser, requireAdmin, guardedUser } from '../../auth/guards.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { encryptSecret } from '../../auth/secret-box.ts';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { sendSafely } from '../../mail/transport.ts';
import { twoFactorDisabledEmail, twoFactorEnabledEmail } from '../../mail/templates.ts';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.ts';
import { acceptSecondFactor, readSecret, acceptRecoveryCode, acceptTotpCode } from './second-factor.ts';
import { codeField, codeOrRecoveryCodeField, passwordField } from './fields.ts';
import { activateTwoFactor, deactivateTwoFactor, getTwoFactorCredential, replaceRecoveryCodes, savePendingSecret } from './queries.ts';
import { clearTwoFactorCookie, readTwoFactorCookie } from '../../auth/cookies.ts';
import { sessionIdFromToken } from '../../auth/sessions.ts';
import { getUserById } from '../../db/queries/users.ts';
import { BANNED_MESSAGE, completeLogin, deletePendingLogin, getPendingLogin, PENDING_LOGIN } from '../sessions/index.ts';
import { acceptPasskeySecondFactor, authenticationResponseField } from '../passkeys/index.ts';
import { flagField } from '../../http/fields.ts';
import { getSecuritySettings, hasSecondFactor, saveSecuritySettings } from '../../auth/two-factor-policy.ts';

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
      const user = guardedUser(c.get('user'));
      if (user.two_factor_enabled_at) return errorResponse(c, 409, TWO_FACTOR_MESSAGES.alreadyOn);
      const secret = newTotpSecret();
      savePendingSecret(ctx.db, user.id, encryptSecret(ctx.config, secret, String(user.id)), nowIso());
      const otpauthUrl = totpUri(secret, { issuer: ctx.config.siteName, account: user.email });
      // Made here, not by an outside service: the secret never leaves this server but to its owner.
      const qrSvg = await (await loadQrCode()).toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return c.json({ secret, otpauth_url: otpauthUrl, qr_svg: qrSvg });
    })
    .post('/enable', requireUser, smallJsonBody(), validate('json', z.object({ code: codeField })), (c) => {
      const user = guardedUser(c.get('user'));
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
      const user = guardedUser(c.get('user'));
      const refused = await confirmIdentity(c, user, c.req.valid('json'));
      if (refused) return refused;
      writeTransaction(ctx.db, () => deactivateTwoFactor(ctx.db, user.id, nowIso()));
      void sendSafely(ctx.mailer, { to: user.email, ...twoFactorDisabledEmail(ctx.config, { name: user.name }) }, ctx.log);
      return c.body(null, 204);
    })
    .post('/recovery-codes', requireUser, smallJsonBody(), validate('json', confirmSchema), async (c) => {
      const user = guardedUser(c.get('user'));
      const refused = await confirmIdentity(c, user, c.req.valid('json'));
      if (refused) return refused;
      return c.json({ recovery_codes: writeTransaction(ctx.db, () => issueRecoveryCodes(user.id)) });
    });
}

/** Codes tried per account from any browser: bounds guessing spread over many password steps. */
export const TWO_FACTOR_ACCOUNT_THROTTLE = { limit: 10, windowMs: 15 * 60_000 } as const;

export const TWO_FACTOR_LOGIN_MESSAGES = {
  expired: 'Your sign-in has expired. Please log in again.',
  exhausted: 'Too many wrong codes. Please log in again.',
  invalidCode: 'The code is not valid.',
  invalidRecoveryCode: 'The recovery code is not valid.',
  invalidPasskey: 'The passkey could not be verified.',
  eitherCode: 'Enter the code from your authenticator app or a recovery code.',
  tooMany: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
} as const;

const secondStepSchema = z
  .object({
    code: codeField.optional(),
    recovery_code: z.string({ error: TWO_FACTOR_LOGIN_MESSAGES.eitherCode }).trim().max(64, TWO_FACTOR_LOGIN_MESSAGES.invalidRecoveryCode).optional(),
    // A passkey instead of a code (docs/decisions/0043-passkeys.md): the browser's answer to
    // POST /api/auth/two-factor/passkey-options.
    passkey_response: authenticationResponseField.optional(),
  })
  .superRefine((input, issues) => {
    const given = [input.code !== undefined, input.recovery_code !== undefined && input.recovery_code !== '', input.passkey_response !== undefined];
    if (given.filter(Boolean).length !== 1) {
      issues.addIssue({ code: 'custom', path: ['code'], message: TWO_FACTOR_LOGIN_MESSAGES.eitherCode });
    }
  });

export function twoFactorLoginRoutes(ctx: AppContext) {
  const pendingThrottle = createRateLimiter({
    limit: PENDING_LOGIN.tries,
    windowMs: PENDING_LOGIN.lifetimeMs,
    db: ctx.db,
    name: 'two-factor-pending',
    now: ctx.now,
  });
  const accountThrottle = createRateLimiter({ ...TWO_FACTOR_ACCOUNT_THROTTLE, db: ctx.db, name: 'two-factor-account', now: ctx.now });

  const endPending = (c: Context<AppEnv>, id: string) => {
    deletePendingLogin(ctx.db, id);
    clearTwoFactorCookie(c, ctx.config);
  };

  return new Hono<AppEnv>().post('/two-factor', smallJsonBody(), validate('json', secondStepSchema), async (c) => {
    const token = readTwoFactorCookie(c, ctx.config);
    const pending = token === undefined ? undefined : getPendingLogin(ctx.db, sessionIdFromToken(token));
    if (!pending || pending.expires_at <= ctx.now()) {
      if (pending) deletePendingLogin(ctx.db, pending.id);
      clearTwoFactorCookie(c, ctx.config);
      return errorResponse(c, 401, TWO_FACTOR_LOGIN_MESSAGES.expired);
    }
    const user = getUserById(ctx.db, pending.user_id);
    if (!user || user.is_banned) {
      endPending(c, pending.id);
      return user ? errorResponse(c, 403, BANNED_MESSAGE) : errorResponse(c, 401, TWO_FACTOR_LOGIN_MESSAGES.expired);
    }
    // Counted before the check, so parallel guesses cannot slip past either limit.
    const accountDecision = accountThrottle.consume(String(user.id));
    if (!accountDecision.allowed) {
      c.header('Retry-After', String(accountDecision.retryAfterSeconds));
      const message = TWO_FACTOR_LOGIN_MESSAGES.tooMany(accountDecision.retryAfterSeconds);
      return errorResponse(c, 429, message, { code: [message] });
    }
    const tries = pendingThrottle.consume(pending.id);

    const { code, recovery_code, passkey_response } = c.req.valid('json');
    const check = async () => {
      if (passkey_response) return acceptPasskeySecondFactor(c, ctx, user, pending.id, passkey_response);
      return code !== undefined ? acceptTotpCode(ctx, user.id, code) : acceptRecoveryCode(ctx, user, recovery_code ?? '');
    };
    const accepted = tries.allowed && (await check());
    if (!accepted) {
      // That was the last try this password step allows: it is void, the user starts again.
      if (!tries.allowed || tries.remaining === 0) {
        endPending(c, pending.id);
        return errorResponse(c, 401, TWO_FACTOR_LOGIN_MESSAGES.exhausted);
      }
      const [field, message] = passkey_response
        ? ['passkey_response', TWO_FACTOR_LOGIN_MESSAGES.invalidPasskey]
        : code !== undefined
          ? ['code', TWO_FACTOR_LOGIN_MESSAGES.invalidCode]
          : ['recovery_code', TWO_FACTOR_LOGIN_MESSAGES.invalidRecoveryCode];
      return errorResponse(c, 422, message, { [field]: [message] });
    }
    endPending(c, pending.id);
    accountThrottle.reset(String(user.id));
    return completeLogin(c, ctx, user, { persistent: pending.persistent === 1 });
  });
}

export const SECURITY_SETTINGS_MESSAGES = {
  saved: 'Security settings saved.',
  enrollFirst: 'Turn on two-factor sign-in for your own account first, or you would lock yourself out of the admin tools.',
} as const;

const settingsSchema = z.object({ require_two_factor_for_admins: flagField('require two factor for admins') });

export function securitySettingsRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(getSecuritySettings(ctx.db, ctx.config)))
    .put('/', requireAdmin, smallJsonBody(), validate('json', settingsSchema), (c) => {
      const { require_two_factor_for_admins } = c.req.valid('json');
      const admin = c.get('user');
      // A passkey meets the requirement as well as TOTP does (docs/decisions/0043-passkeys.md).
      if (require_two_factor_for_admins === 1 && (!admin || !hasSecondFactor(ctx.db, admin))) {
        throw new HttpError(422, SECURITY_SETTINGS_MESSAGES.enrollFirst, { require_two_factor_for_admins: [SECURITY_SETTINGS_MESSAGES.enrollFirst] });
      }
      const settings = writeTransaction(ctx.db, () => {
        saveSecuritySettings(ctx.db, { require_two_factor_for_admins });
        return getSecuritySettings(ctx.db, ctx.config);
      });
      ctx.log.info(`Security settings saved by user ${c.get('user')?.id ?? '?'}: ${JSON.stringify(settings)}`);
      return c.json({ message: SECURITY_SETTINGS_MESSAGES.saved, ...settings });
    });
}

/** The two-factor feature as server/app.ts mounts it: two-factor sign-in: the login's second step, the dashboard's settings, the admins' requirement, at full paths. */
export function twoFactorFeature(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route('/api/auth', twoFactorLoginRoutes(ctx))
    .route('/api/user/two-factor', twoFactorRoutes(ctx))
    .route('/api/admin/security-settings', securitySettingsRoutes(ctx));
}
