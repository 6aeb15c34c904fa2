// Builds the Hono app from the features. Static pages are not served here but by the
// in-memory fast path in server/static (see server/server.ts), which hands everything else to this app.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv } from './context.ts';
import { HttpError, errorResponse } from './http/errors.ts';
import { DISK_FULL_MESSAGES, isDiskFullError } from './storage/disk.ts';
import { apiSecurityHeaders } from './http/security-headers.ts';
import { compressJson } from './http/compress-json.ts';
import { createRouteMatcher } from './http/route-matcher.ts';
import { observeRequests } from './ops/request-observer.ts';
import { routePattern } from './ops/route-pattern.ts';
import { csrfCookieRoutes, csrfProtection, originCheck } from './auth/csrf.ts';
import { loadSession } from './auth/session-middleware.ts';
import { botcheckFeature } from './features/botcheck/index.ts';
import { sessionsFeature } from './features/sessions/index.ts';
import { twoFactorFeature } from './features/two-factor/index.ts';
import { passkeysFeature } from './features/passkeys/index.ts';
import { accountsFeature } from './features/accounts/index.ts';
import { profileFeature } from './features/profile/index.ts';
import { ownDataFeature } from './features/own-data/index.ts';
import { usersFeature } from './features/users/index.ts';
import { licensingFeature } from './features/licensing/index.ts';
import { licenseTypesFeature } from './features/license-types/index.ts';
import { contactFeature } from './features/contact/index.ts';
import { homeFeature } from './features/home/index.ts';
import { contentFeature } from './features/content/index.ts';
import { imagesFeature } from './features/images/index.ts';
import { filesFeature } from './features/files/index.ts';
import { downloadsFeature } from './features/downloads/index.ts';
import { publishFeature } from './features/publish/index.ts';
import { bannedDomainsFeature } from './features/banned-domains/index.ts';
import { mailingsFeature } from './features/mailings/index.ts';
import { sitemapFeature } from './features/sitemap/index.ts';
import { inboxFeature } from './features/inbox/index.ts';
import { webhooksFeature } from './features/webhooks/index.ts';
import { apiTokensFeature } from './features/api-tokens/index.ts';
import { publicApiFeature } from './features/public-api/index.ts';
import { apiReferenceFeature } from './features/api-reference/index.ts';
import { supportFeature } from './features/support/index.ts';
import { legalPagesFeature } from './features/legal-pages/index.ts';
import { updatesFeature } from './features/updates/index.ts';

export type App = Hono<AppEnv>;

/** The features the API is made of, each one router at full paths (server/features/<feature>/index.ts). */
export const FEATURES = [
  botcheckFeature,
  sessionsFeature,
  twoFactorFeature,
  passkeysFeature,
  accountsFeature,
  profileFeature,
  ownDataFeature,
  usersFeature,
  licenseTypesFeature,
  licensingFeature,
  contactFeature,
  homeFeature,
  contentFeature,
  imagesFeature,
  filesFeature,
  downloadsFeature,
  publishFeature,
  bannedDomainsFeature,
  mailingsFeature,
  sitemapFeature,
  inboxFeature,
  webhooksFeature,
  apiTokensFeature,
  publicApiFeature,
  apiReferenceFeature,
  supportFeature,
  legalPagesFeature,
  updatesFeature,
] as const satisfies readonly ((ctx: AppContext) => Hono<AppEnv>)[];

export function createApp(ctx: AppContext): App {
  // Hono's router, with the matches of fixed paths (the machine APIs, /api/user…) kept (server/http/route-matcher.ts).
  const app = new Hono<AppEnv>({ router: createRouteMatcher() });

  // Outermost: it times the whole answer and labels it with the route that gave it (server/ops/).
  app.use('*', observeRequests(ctx));
  // First, so it sees the answer last, headers and all.
  app.use('/api/*', compressJson);
  app.use('*', apiSecurityHeaders(ctx.config));
  app.use('*', originCheck(ctx));
  app.use('/api/*', csrfProtection(ctx));
  app.use('*', loadSession(ctx));

  app.route('/sanctum', csrfCookieRoutes(ctx));
  // Every feature answers at full paths of its own, and no path belongs to two features
  // (tests/server/app-features.test.ts), so the order below decides nothing (docs/architecture.md#where-things-are).
  // The machine-facing prefix of licensing is exempt from the Origin and XSRF checks above (server/auth/csrf.ts).
  for (const feature of FEATURES) app.route('/', feature(ctx));

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
