// Login and logout (docs/product/api.md). Registration, verification and password reset are their own routers on
// the same /api/auth prefix (registration.ts, email-verification.ts, password-reset.ts).
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { clearSessionCookies, setSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { verifyAgainstDummyHash, verifyPassword } from '../../auth/passwords.ts';
import { accountPayload } from '../../auth/public-user.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { createSession, invalidateSession } from '../../auth/sessions.ts';
import { requireBotToken } from '../../auth/botcheck.ts';
import { getUserByEmail } from '../../db/queries/users.ts';
import { clientIp } from '../../http/client-ip.ts';
import { errorResponse } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { flagFieldOr } from '../../http/fields.ts';

export const BAD_CREDENTIALS_MESSAGE = 'These credentials do not match our records.';
export const BANNED_MESSAGE = 'Your account has been suspended. Please contact the administrator.';
/** Five failed attempts per e-mail and IP within a minute; the sixth is refused (argon2 is CPU-bound). */
export const LOGIN_THROTTLE = { limit: 5, windowMs: 60_000 } as const;

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
  const loginThrottle = createRateLimiter({ ...LOGIN_THROTTLE, db: ctx.db, name: 'login', now: ctx.now });
  // A failed bot check counts as a failed login (issue 17, item 1), under the key the handler consumes.
  const countFailedBotCheck = (c: Context<AppEnv>, body: Record<string, unknown>) => {
    if (typeof body.email === 'string') loginThrottle.hit(`${body.email.trim().toLowerCase()}|${clientIp(c, ctx.config)}`);
  };
  const smallBody = bodyLimit({ maxSize: 32 * 1024, onError: (c) => errorResponse(c, 413, 'The request is too large.') });

  return new Hono<AppEnv>()
    .post('/login', smallBody, requireBotToken(ctx, { field: 'email', onFailure: countFailedBotCheck }), validate('json', loginSchema), async (c) => {
      const { email, password, remember_me } = c.req.valid('json');
      // Counted before the (slow) check so parallel guesses cannot slip past the limit; a success clears it.
      const throttleKey = `${email.toLowerCase()}|${clientIp(c, ctx.config)}`;
      const decision = loginThrottle.consume(throttleKey);
      if (!decision.allowed) {
        const message = `Too many login attempts. Please try again in ${decision.retryAfterSeconds} seconds.`;
        c.header('Retry-After', String(decision.retryAfterSeconds));
        return errorResponse(c, 429, message, { email: [message] });
      }

      const user = getUserByEmail(ctx.db, email);
      // Unknown e-mail and wrong password take the same time and get the same answer.
      const passwordMatches = user ? await verifyPassword(user.password_hash, password) : await verifyAgainstDummyHash(password);
      if (!user || !passwordMatches) return errorResponse(c, 422, BAD_CREDENTIALS_MESSAGE, { email: [BAD_CREDENTIALS_MESSAGE] });
      // Only after the right password: a ban is then no news about whether the address has an account.
      if (user.is_banned) return errorResponse(c, 403, BANNED_MESSAGE);

      loginThrottle.reset(throttleKey);
      // A new token at every login; the session this browser had before ends (no session fixation).
      const previous = c.get('sessionId');
      if (previous) invalidateSession(ctx, previous);
      const { token, session } = createSession(ctx, user.id, { persistent: remember_me });
      setSessionCookies(c, ctx.config, token, session, ctx.now());
      rotateXsrfToken(c, ctx.config);
      c.set('user', user);
      c.set('sessionId', session.id);
      return c.json(accountPayload(ctx.db, user, ctx.now()), 200);
    })
    .post('/logout', (c) => {
      const sessionId = c.get('sessionId');
      if (sessionId) invalidateSession(ctx, sessionId);
      clearSessionCookies(c, ctx.config);
      c.set('user', null);
      c.set('sessionId', null);
      return c.body(null, 204);
    });
}
