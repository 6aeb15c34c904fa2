// Puts the signed-in user (or null) on every request, before any router runs, so guards and handlers
// only read c.var.user. Keeps the browser's cookies in step with the server's view of the session.
import { createMiddleware } from 'hono/factory';
import type { AppContext, AppEnv } from '../context.ts';
import { isMachineApiPath, rotateXsrfToken } from './csrf.ts';
import { clearSessionCookies, hasSignedInHint, readSessionCookie, setSessionCookies } from './cookies.ts';
import { validateSessionToken } from './sessions.ts';
import { mustEnrollTwoFactor } from './two-factor-policy.ts';

export function loadSession(ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('user', null);
    c.set('sessionId', null);
    c.set('twoFactorEnrollmentRequired', false);
    // The machine APIs authenticate by what their caller holds; a cookie there means nothing (server/auth/csrf.ts).
    if (isMachineApiPath(c.req.path)) return next();
    const token = readSessionCookie(c, ctx.config);
    if (token === undefined) {
      // A hint without a session (the browser dropped the session cookie) would make pages think we are
      // signed in; remove it.
      if (hasSignedInHint(c)) clearSessionCookies(c, ctx.config);
      return next();
    }
    const result = validateSessionToken(ctx, token);
    if (!result) {
      clearSessionCookies(c, ctx.config);
      // Its token was bound to the session that ended: the next write (a new sign-in) needs one bound to
      // this browser as a visitor.
      rotateXsrfToken(c, ctx, null);
      return next();
    }
    // An admin who must turn two-factor on first (docs/product/accounts.md#two-factor-sign-in) acts as a user
    // until they do: requireAdmin answers them with what to do, and every other check of the role (the owner
    // routes' "or an admin", unpublished content) sees no admin, so no admin power is left behind by mistake.
    // Only an admin without two-factor costs the settings read.
    const enrol = mustEnrollTwoFactor(ctx.db, ctx.config, result.user);
    c.set('user', enrol ? { ...result.user, role: 'user' } : result.user);
    c.set('sessionId', result.session.id);
    c.set('twoFactorEnrollmentRequired', enrol);
    // Only a persistent cookie carries an expiry that must follow the server's; a browser-session
    // cookie has none, so re-sending it would change nothing.
    if (result.renewed && result.session.persistent) setSessionCookies(c, ctx.config, token, result.session, ctx.now());
    return next();
  });
}
