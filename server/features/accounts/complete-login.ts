// The end of every successful login (docs/product/accounts.md#login-and-registration): after the password when
// two-factor is off, after the code when it is on (two-factor-login.ts). One function, so both paths give the
// same protection and the same answer.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { setSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { accountPayload } from '../../auth/public-user.ts';
import { sessionClientOf } from '../../auth/session-client.ts';
import { createSession, invalidateSession } from '../../auth/sessions.ts';
import { mustEnrollTwoFactor } from './two-factor-settings.ts';

/**
 * Creates the session and answers `{ user, licenses }`. A new token at every login and the session this
 * browser had before ends (no session fixation); the anti-forgery token changes with the session.
 * `persistent` is the login's remember_me.
 */
export function completeLogin(c: Context<AppEnv>, ctx: AppContext, user: User, options: { persistent: boolean }) {
  const previous = c.get('sessionId');
  if (previous) invalidateSession(ctx, previous);
  const { token, session } = createSession(ctx, user.id, { persistent: options.persistent, client: sessionClientOf(c, ctx.config) });
  setSessionCookies(c, ctx.config, token, session, ctx.now());
  rotateXsrfToken(c, ctx, session);
  const enrollmentRequired = mustEnrollTwoFactor(ctx.db, ctx.config, user);
  c.set('user', user);
  c.set('sessionId', session.id);
  c.set('twoFactorEnrollmentRequired', enrollmentRequired);
  return c.json(accountPayload(ctx, user, ctx.now(), { twoFactorRequired: enrollmentRequired }), 200);
}
