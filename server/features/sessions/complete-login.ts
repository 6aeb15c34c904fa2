// The end of every successful login (docs/product/accounts.md#login-and-registration): after the password when
// two-factor is off, after the second factor when it is on (the two-factor feature). One function, so every path
// gives the same protection and the same answer. The pending login between the two steps starts here too.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { setSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { setTwoFactorCookie } from '../../auth/cookies.ts';
import { accountPayload } from './present.ts';
import { insertPendingLogin } from './queries.ts';
import { sessionClientOf } from '../../auth/session-client.ts';
import { createSession, generateSessionToken, invalidateSession, sessionIdFromToken } from '../../auth/sessions.ts';
import { mustEnrollTwoFactor } from '../../auth/two-factor-policy.ts';

/**
 * Creates the session and answers `{ user, licenses }`. A new token at every login and the session this
 * browser had before ends (no session fixation); the anti-forgery token changes with the session.
 * `persistent` is the login's remember_me; `signedInWith` 'passkey' when a passkey alone signed in (it lets
 * the passkey list remove a passkey without the password for 5 minutes, docs/product/accounts.md#passkeys).
 */
export function completeLogin(c: Context<AppEnv>, ctx: AppContext, user: User, options: { persistent: boolean; signedInWith?: 'password' | 'passkey' }) {
  const previous = c.get('sessionId');
  if (previous) invalidateSession(ctx, previous);
  const { token, session } = createSession(ctx, user.id, {
    persistent: options.persistent,
    client: sessionClientOf(c, ctx.config),
    signedInWith: options.signedInWith ?? 'password',
  });
  setSessionCookies(c, ctx.config, token, session, ctx.now());
  rotateXsrfToken(c, ctx, session);
  const enrollmentRequired = mustEnrollTwoFactor(ctx.db, ctx.config, user);
  c.set('user', user);
  c.set('sessionId', session.id);
  c.set('twoFactorEnrollmentRequired', enrollmentRequired);
  return c.json(accountPayload(ctx, user, ctx.now(), { twoFactorRequired: enrollmentRequired }), 200);
}

/** How long the code may follow the password, and how many codes one password step allows. */
export const PENDING_LOGIN = { lifetimeMs: 5 * 60_000, tries: 5 } as const;

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
