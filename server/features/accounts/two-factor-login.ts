// The login's second step (docs/product/accounts.md#two-factor-sign-in). The password step of a user with
// two-factor on creates no session: only a pending login, bound to that browser by an HttpOnly cookie whose
// random token is stored as its SHA-256 (like session tokens), for 5 minutes and 5 tries. POST
// /api/auth/two-factor with a code from the app or a recovery code then completes the login exactly as the
// password alone does for everyone else (completeLogin), so every guard keeps working unchanged.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { clearTwoFactorCookie, readTwoFactorCookie, setTwoFactorCookie } from '../../auth/cookies.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { generateSessionToken, sessionIdFromToken } from '../../auth/sessions.ts';
import { getUserById } from '../../db/queries/users.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { BANNED_MESSAGE } from './auth.ts';
import { completeLogin } from './complete-login.ts';
import { acceptRecoveryCode, acceptTotpCode } from './second-factor.ts';
import { deletePendingLogin, getPendingLogin, insertPendingLogin } from './two-factor-queries.ts';
import { codeField } from './two-factor-fields.ts';

/** How long the code may follow the password, and how many codes one password step allows. */
export const PENDING_LOGIN = { lifetimeMs: 5 * 60_000, tries: 5 } as const;
/** Codes tried per account from any browser: bounds guessing spread over many password steps. */
export const TWO_FACTOR_ACCOUNT_THROTTLE = { limit: 10, windowMs: 15 * 60_000 } as const;

export const TWO_FACTOR_LOGIN_MESSAGES = {
  expired: 'Your sign-in has expired. Please log in again.',
  exhausted: 'Too many wrong codes. Please log in again.',
  invalidCode: 'The code is not valid.',
  invalidRecoveryCode: 'The recovery code is not valid.',
  eitherCode: 'Enter the code from your authenticator app or a recovery code.',
  tooMany: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
} as const;

/** The password was right and two-factor is on: remember that in this browser only, and ask for the code. */
export function startTwoFactorLogin(c: Context<AppEnv>, ctx: AppContext, user: User, options: { persistent: boolean }) {
  const token = generateSessionToken();
  const now = ctx.now();
  insertPendingLogin(
    ctx.db,
    { id: sessionIdFromToken(token), user_id: user.id, persistent: options.persistent, expires_at: now + PENDING_LOGIN.lifetimeMs },
    now,
  );
  setTwoFactorCookie(c, ctx.config, token, PENDING_LOGIN.lifetimeMs / 1000);
  return c.json({ two_factor: true as const }, 200);
}

const secondStepSchema = z
  .object({
    code: codeField.optional(),
    recovery_code: z.string({ error: TWO_FACTOR_LOGIN_MESSAGES.eitherCode }).trim().max(64, TWO_FACTOR_LOGIN_MESSAGES.invalidRecoveryCode).optional(),
  })
  .superRefine((input, issues) => {
    if ((input.code === undefined) === (input.recovery_code === undefined || input.recovery_code === '')) {
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

  return new Hono<AppEnv>().post('/two-factor', smallJsonBody(), validate('json', secondStepSchema), (c) => {
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

    const { code, recovery_code } = c.req.valid('json');
    const accepted = tries.allowed && (code !== undefined ? acceptTotpCode(ctx, user.id, code) : acceptRecoveryCode(ctx, user, recovery_code ?? ''));
    if (!accepted) {
      // That was the last try this password step allows: it is void, the user starts again.
      if (!tries.allowed || tries.remaining === 0) {
        endPending(c, pending.id);
        return errorResponse(c, 401, TWO_FACTOR_LOGIN_MESSAGES.exhausted);
      }
      const field = code !== undefined ? 'code' : 'recovery_code';
      const message = code !== undefined ? TWO_FACTOR_LOGIN_MESSAGES.invalidCode : TWO_FACTOR_LOGIN_MESSAGES.invalidRecoveryCode;
      return errorResponse(c, 422, message, { [field]: [message] });
    }
    endPending(c, pending.id);
    accountThrottle.reset(String(user.id));
    return completeLogin(c, ctx, user, { persistent: pending.persistent === 1 });
  });
}
