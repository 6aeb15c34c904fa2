// Builds the Hono app from the feature routers. Static pages are not served here but by the
// in-memory fast path in server/static (see server/server.ts), which hands everything else to this app.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv } from './context.ts';
import { HttpError, errorResponse } from './http/errors.ts';
import { DISK_FULL_MESSAGES, isDiskFullError } from './storage/disk.ts';
import { apiSecurityHeaders } from './http/security-headers.ts';
import { compressJson } from './http/compress-json.ts';
import { observeRequests } from './ops/request-observer.ts';
import { routePattern } from './ops/route-pattern.ts';
import { csrfCookieRoutes, csrfProtection, originCheck } from './auth/csrf.ts';
import { loadSession } from './auth/session-middleware.ts';
import { authRoutes } from './features/accounts/auth.ts';
import { userRoutes } from './features/accounts/user.ts';
import { homeRoutes } from './features/home/routes.ts';
import { publishRoutes } from './features/publish/routes.ts';
import { botcheckRoutes } from './features/botcheck/routes.ts';
import { registrationRoutes } from './features/accounts/registration.ts';
import { emailVerificationRoutes } from './features/accounts/email-verification.ts';
import { passwordResetRoutes } from './features/accounts/password-reset.ts';
import { accountRoutes } from './features/accounts/account.ts';
import { ownDataRoutes } from './features/accounts/own-data.ts';
import { sessionRoutes } from './features/accounts/sessions.ts';
import { passwordChangeRoutes } from './features/accounts/password-change.ts';
import { emailChangeRoutes } from './features/accounts/email-change.ts';
import { twoFactorRoutes } from './features/accounts/two-factor.ts';
import { twoFactorLoginRoutes } from './features/accounts/two-factor-login.ts';
import { securitySettingsRoutes } from './features/accounts/security-settings-routes.ts';
import { contactRoutes } from './features/contact/routes.ts';
import { contentRoutes } from './features/content/routes.ts';
import { adminUserListRoutes, adminUserRoutes } from './features/users/routes.ts';
import { adminSessionRoutes } from './features/users/session-routes.ts';
import { licenseRoutes } from './features/licenses/routes.ts';
import { licensingSettingsRoutes } from './features/licensing/settings-routes.ts';
import { bannedDomainRoutes } from './features/banned-domains/routes.ts';
import { mailingRoutes } from './features/mailings/routes.ts';
import { mailingUnsubscribeRoutes } from './features/mailings/unsubscribe.ts';
import { sitemapRoutes } from './features/sitemap/routes.ts';
import { inboxRoutes } from './features/inbox/routes.ts';
import { licenseRequestRoutes } from './features/inbox/license-request-routes.ts';
import { downloadsRoutes } from './features/downloads/routes.ts';
import { LICENSING_PREFIX, licensingApiRoutes } from './features/licensing/routes.ts';
import { adminMachineRoutes, ownerMachineRoutes } from './features/licensing/machine-routes.ts';

export type App = Hono<AppEnv>;

export function createApp(ctx: AppContext): App {
  const app = new Hono<AppEnv>();

  // Outermost: it times the whole answer and labels it with the route that gave it (server/ops/).
  app.use('*', observeRequests(ctx));
  // First, so it sees the answer last, headers and all.
  app.use('/api/*', compressJson);
  app.use('*', apiSecurityHeaders(ctx.config));
  app.use('*', originCheck(ctx));
  app.use('/api/*', csrfProtection(ctx));
  app.use('*', loadSession(ctx));

  app.route('/sanctum', csrfCookieRoutes(ctx));
  app.route('/api/botcheck', botcheckRoutes(ctx));
  app.route('/api/auth', authRoutes(ctx));
  app.route('/api/auth', twoFactorLoginRoutes(ctx));
  app.route('/api/auth', registrationRoutes(ctx));
  app.route('/api/auth', emailVerificationRoutes(ctx));
  app.route('/api/auth', passwordResetRoutes(ctx));
  app.route('/api/user', userRoutes(ctx));
  app.route('/api/user/two-factor', twoFactorRoutes(ctx));
  // Before accountRoutes: an admin's PUT /api/user/update/{id} is answered here; everyone else's falls through.
  app.route('/api/user', adminUserRoutes(ctx));
  app.route('/api/user', accountRoutes(ctx));
  app.route('/api/user', ownDataRoutes(ctx));
  app.route('/api/user/licenses', ownerMachineRoutes(ctx));
  app.route('/api/user/sessions', sessionRoutes(ctx));
  app.route('/api/user', passwordChangeRoutes(ctx));
  app.route('/api/user', emailChangeRoutes(ctx));
  app.route('/api/contact', contactRoutes(ctx));
  app.route('/api/home', homeRoutes(ctx));
  app.route('/api', contentRoutes(ctx));
  app.route('/api/downloads', downloadsRoutes(ctx));
  app.route('/api/admin/publish', publishRoutes(ctx));
  app.route('/api/admin/users', adminUserListRoutes(ctx));
  app.route('/api/admin/users', adminSessionRoutes(ctx));
  app.route('/api/license', licenseRoutes(ctx));
  app.route('/api/admin/licensing-settings', licensingSettingsRoutes(ctx));
  app.route('/api/admin/security-settings', securitySettingsRoutes(ctx));
  app.route('/api/license', adminMachineRoutes(ctx));
  // Exempt from the Origin and XSRF checks above (server/auth/csrf.ts): the software sends no cookies.
  app.route(LICENSING_PREFIX, licensingApiRoutes(ctx));
  app.route('/api/admin/banned-domains', bannedDomainRoutes(ctx));
  app.route('/api/admin', mailingRoutes(ctx));
  app.route('/api/admin/sitemap', sitemapRoutes(ctx));
  app.route('/api/admin/inbox/license-request', licenseRequestRoutes(ctx));
  app.route('/api/admin/inbox', inboxRoutes(ctx));
  app.route('/api/mailing', mailingUnsubscribeRoutes(ctx));

  app.notFound((c) => {
    if (c.req.path.startsWith('/api/')) return errorResponse(c, 404, 'Not found.');
    // docs/product/reading.md#posts-screens: an unknown section slug goes to the first section, which /{namespace} shows (the
    // page then sets the first post's #hash). Known sections are static pages and never get here.
    const posts = /^\/(news|documentation|tutorials)\/./.exec(c.req.path);
    if (posts) return c.redirect(`/${posts[1]}`, 302);
    // docs/product/routes.md#route-table: any other path redirects to home.
    return c.redirect('/', 302);
  });

  app.onError((error, c) => {
    if (error instanceof HttpError) {
      if (error.headers) for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return errorResponse(c, error.status, error.message, error.errors);
    }
    // Hono's own refusals (its JSON validator throws 400 'Malformed JSON in request body' for a body that
    // does not parse, an empty one included) are the client's fault: answer them in our shape, not as 500.
    if (error instanceof HTTPException && error.status < 500) return errorResponse(c, error.status as ContentfulStatusCode, error.message || 'Bad request.');
    // ENOSPC/EDQUOT from an upload, SQLITE_FULL from a commit: the handlers already removed what they had
    // written, and the admin can act on a plain answer (free space) where a 500 would say nothing.
    if (isDiskFullError(error)) {
      ctx.log.error(`${c.req.method} ${routePattern(c)} failed: the disk is full`, error);
      // An upload cut short leaves the rest of its body unread: the connection cannot be reused.
      c.header('Connection', 'close');
      const upload = (c.req.header('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data');
      return errorResponse(c, 507, upload ? DISK_FULL_MESSAGES.file : DISK_FULL_MESSAGES.change);
    }
    // The route pattern, not the path: a path can hold a token (docs/decisions/0031-observability.md).
    ctx.log.error(`${c.req.method} ${routePattern(c)} failed`, error);
    return errorResponse(c, 500, 'Server error, please try again later!');
  });

  return app;
}
