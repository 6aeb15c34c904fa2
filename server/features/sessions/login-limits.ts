// The limits every sign-in keeps (docs/product/accounts.md#login-and-registration), in one place so the password
// login and the passkey sign-in (server/features/passkeys/) count against the same counters and tell the owner
// of a locked account the same way: per (account or client, address) attempts a minute, per account attempts
// in 15 minutes, and one lockout notice per window.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { createRateLimiter, type RateLimiter } from '../../auth/rate-limit.ts';
import { getUserByEmail } from '../../db/queries/users.ts';
import { errorResponse } from '../../http/errors.ts';
import { sendSafely } from '../../mail/transport.ts';
import { loginLockoutEmail } from '../../mail/templates.ts';

/** Five failed attempts per e-mail and IP within a minute; the sixth is refused (argon2 is CPU-bound). */
export const LOGIN_THROTTLE = { limit: 5, windowMs: 60_000 } as const;
/**
 * ACCOUNT_LOGINS_PER_15_MINUTES (twenty) attempts per account (the e-mail, whatever the address) within 15 minutes; then every login for
 * it is refused until the window frees a slot (issue 17 item 8, docs/product/constants.md#rate-limits).
 * Bounds guessing spread over many addresses, which LOGIN_THROTTLE alone does not.
 */
export const ACCOUNT_LOGIN_THROTTLE = { windowMs: 15 * 60_000 } as const;

export interface LoginLimits {
  /** Per (e-mail, address) for the password; per ('passkey', address) for the passkey sign-in. */
  loginThrottle: RateLimiter;
  /** Per account, keyed by the lower-cased e-mail: shared by every way of signing in. */
  accountThrottle: RateLimiter;
  /** 429 'Too many login attempts…' with Retry-After, on the e-mail field as the login form reads it. */
  tooManyAttempts: (c: Context<AppEnv>, retryAfterSeconds: number) => ReturnType<typeof errorResponse>;
  /** Tells the owner (when the e-mail has an account) that its logins are locked, once per lockout. */
  noticeLockout: (accountKey: string) => void;
}

export function createLoginLimits(ctx: AppContext): LoginLimits {
  const loginThrottle = createRateLimiter({ ...LOGIN_THROTTLE, db: ctx.db, name: 'login', now: ctx.now });
  const accountThrottle = createRateLimiter({
    limit: ctx.config.accountLoginsPer15Minutes,
    windowMs: ACCOUNT_LOGIN_THROTTLE.windowMs,
    db: ctx.db,
    name: 'login-account',
    now: ctx.now,
  });
  // At most one notice per account per window: a lockout lasts at least that long, and each slot the
  // sliding window frees during an attack must not mail the owner again.
  const lockoutNotices = createRateLimiter({ limit: 1, windowMs: ACCOUNT_LOGIN_THROTTLE.windowMs, db: ctx.db, name: 'login-lockout-notice', now: ctx.now });

  return {
    loginThrottle,
    accountThrottle,
    tooManyAttempts(c, retryAfterSeconds) {
      const message = `Too many login attempts. Please try again in ${retryAfterSeconds} seconds.`;
      c.header('Retry-After', String(retryAfterSeconds));
      return errorResponse(c, 429, message, { email: [message] });
    },
    noticeLockout(accountKey) {
      if (!lockoutNotices.consume(accountKey).allowed) return;
      const user = getUserByEmail(ctx.db, accountKey);
      if (!user) return;
      const minutes = ACCOUNT_LOGIN_THROTTLE.windowMs / 60_000;
      // Not awaited: the answer takes the same time whether or not the e-mail has an account.
      void sendSafely(ctx.mailer, { to: user.email, ...loginLockoutEmail(ctx.config, { name: user.name, minutes }) }, ctx.log);
    },
  };
}
