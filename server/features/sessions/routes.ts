// Login and logout (docs/product/api.md). Registration, verification and password reset are their own routers on
// the same /api/auth prefix (registration.ts, email-verification.ts, password-reset.ts).
//
// The signed-in user's own account (docs/product/api.md#auth-and-user). Profile edits and license requests are
// in account.ts on the same /api/user prefix; the admin's user actions join in their issue.
//
// The signed-in user's sessions (docs/product/accounts.md#sessions, docs/product/api.md#sessions-password-and-e-mail; issue 13,
// item 2), mounted at /api/user/sessions: the list, signing out one session, and signing out every other.
// Sessions are read from the database on every request (server/auth/session-middleware.ts), so a session
// ended here answers 401 on its very next request.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { clearSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { verifyAgainstDummyHash, verifyPassword } from '../../auth/passwords.ts';
import { invalidateSession, invalidateOtherSessions } from '../../auth/sessions.ts';
import { requireBotToken } from '../../auth/botcheck.ts';
import { getUserByEmail, getUserById } from '../../db/queries/users.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { errorResponse } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { flagFieldOr } from '../../http/fields.ts';
import { createLoginLimits } from './login-limits.ts';
import { completeLogin } from './complete-login.ts';
import { startTwoFactorLogin } from './complete-login.ts';
import { requireUser, guardedUser } from '../../auth/guards.ts';
import { accountPayload } from './present.ts';
import { deleteSessionOfUserByPublicId, listLiveSessionsOfUser } from '../../db/queries/sessions.ts';
import { presentSessions } from './present.ts';

export const BAD_CREDENTIALS_MESSAGE = 'These credentials do not match our records.';
export const BANNED_MESSAGE = 'Your account has been suspended. Please contact the administrator.';
export { ACCOUNT_LOGIN_THROTTLE, LOGIN_THROTTLE } from './login-limits.ts';

const required = (field: string) => `The ${field} field is required.`;

// The client may send the checkbox as a boolean or in its form-encoded spellings.
const rememberMe = flagFieldOr('remember me', 0).transform((flag) => flag === 1);

const loginSchema = z.object({
  email: z
    .string({ error: required('email') })
    .trim()
    .min(1, required('email'))
    .max(255, 'The email field must not be greater than 255 characters.')
    .pipe(z.email('The email field must be a valid email address.')),
  password: z
    .string({ error: required('password') })
    .min(1, required('password'))
    .max(1024, 'The password field must not be greater than 1024 characters.'),
  remember_me: rememberMe,
  // Verified (and spent) by requireBotToken before this schema runs.
  g_token: z.string().max(20_000).nullish(),
});

export function authRoutes(ctx: AppContext) {
  const { loginThrottle, accountThrottle, tooManyAttempts, noticeLockout } = createLoginLimits(ctx);
  // A failed bot check counts as a failed login (issue 17, item 1), under the key the handler consumes.
  const countFailedBotCheck = (c: Context<AppEnv>, body: Record<string, unknown>) => {
    if (typeof body.email === 'string') loginThrottle.hit(`${body.email.trim().toLowerCase()}|${rateLimitAddress(clientIp(c, ctx.config))}`);
  };
  const smallBody = bodyLimit({ maxSize: 32 * 1024, onError: (c) => errorResponse(c, 413, 'The request is too large.') });

  return new Hono<AppEnv>()
    .post('/login', smallBody, requireBotToken(ctx, { field: 'email', onFailure: countFailedBotCheck }), validate('json', loginSchema), async (c) => {
      const { email, password, remember_me } = c.req.valid('json');
      // Counted before the (slow) check so parallel guesses cannot slip past the limits. A success clears
      // the per-(e-mail, address) count only: the per-account one runs its window out, so whoever knows
      // the password cannot reset a lockout an attacker caused (nor an attacker who guesses it, his own).
      // Unknown e-mails are counted the same way, so a lockout tells nobody that an account exists.
      const accountKey = email.toLowerCase();
      const throttleKey = `${accountKey}|${rateLimitAddress(clientIp(c, ctx.config))}`;
      const decision = loginThrottle.consume(throttleKey);
      if (!decision.allowed) return tooManyAttempts(c, decision.retryAfterSeconds);
      const accountDecision = accountThrottle.consume(accountKey);
      if (!accountDecision.allowed) {
        noticeLockout(accountKey);
        return tooManyAttempts(c, accountDecision.retryAfterSeconds);
      }

      const user = getUserByEmail(ctx.db, email);
      // Unknown e-mail and wrong password take the same time and get the same answer.
      const passwordMatches = user ? await verifyPassword(user.password_hash, password) : await verifyAgainstDummyHash(password);
      if (!user || !passwordMatches) {
        // This failure took the account's last attempt: the lockout starts now, so say so now.
        if (accountDecision.remaining === 0) noticeLockout(accountKey);
        return errorResponse(c, 422, BAD_CREDENTIALS_MESSAGE, { email: [BAD_CREDENTIALS_MESSAGE] });
      }
      // Only after the right password: a ban is then no news about whether the address has an account.
      if (user.is_banned) return errorResponse(c, 403, BANNED_MESSAGE);

      loginThrottle.reset(throttleKey);
      // Two-factor on: no session yet, only the pending second step (two-factor-login.ts).
      if (user.two_factor_enabled_at) return startTwoFactorLogin(c, ctx, user, { persistent: remember_me });
      return completeLogin(c, ctx, user, { persistent: remember_me });
    })
    .post('/logout', (c) => {
      const sessionId = c.get('sessionId');
      if (sessionId) invalidateSession(ctx, sessionId);
      clearSessionCookies(c, ctx.config);
      rotateXsrfToken(c, ctx, null);
      c.set('user', null);
      c.set('sessionId', null);
      return c.body(null, 204);
    });
}

export function userRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/', requireUser, (c) => {
    const user = guardedUser(c.get('user'));
    const enrol = c.get('twoFactorEnrollmentRequired');
    // An admin who must enrol acts as a user (session-middleware.ts); the answer shows the account as it is.
    const account = enrol ? (getUserById(ctx.db, user.id) ?? user) : user;
    return c.json(accountPayload(ctx, account, ctx.now(), { twoFactorRequired: enrol }));
  });
}

export const SESSION_MESSAGES = {
  notFound: 'Session not found.',
} as const;

/** A public id as generatePublicSessionId makes it; anything else cannot name a session. */
export const PUBLIC_SESSION_ID = /^[A-Za-z0-9_-]{16}$/;

export function sessionRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => {
      const user = guardedUser(c.get('user'));
      return c.json({ sessions: presentSessions(listLiveSessionsOfUser(ctx.db, user.id, ctx.now()), c.get('sessionId')) });
    })
    .post('/revoke-others', requireUser, (c) => {
      const user = guardedUser(c.get('user'));
      invalidateOtherSessions(ctx, user.id, c.get('sessionId'));
      return c.body(null, 204);
    })
    .delete('/:id', requireUser, (c) => {
      const user = guardedUser(c.get('user'));
      const id = c.req.param('id');
      // Only the caller's own sessions: another user's id answers exactly like an unknown one.
      if (!PUBLIC_SESSION_ID.test(id) || !deleteSessionOfUserByPublicId(ctx.db, user.id, id)) return errorResponse(c, 404, SESSION_MESSAGES.notFound);
      return c.body(null, 204);
    });
}

/** The sessions feature as server/app.ts mounts it: signing in and out, the signed-in user, and their sessions, at full paths. */
export function sessionsFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/auth', authRoutes(ctx)).route('/api/user', userRoutes(ctx)).route('/api/user/sessions', sessionRoutes(ctx));
}
