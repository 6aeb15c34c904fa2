// Cross-site request forgery defences for a JSON API used by our own pages (docs/product/api.md: the client
// fetches GET /sanctum/csrf-cookie, then echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN):
// 1. originCheck: a browser always sends Origin on cross-origin fetches and on every POST; if it names a
//    foreign site, refuse. Hono's csrf() helper is not enough: it ignores JSON requests (docs/engineering.md#known-traps).
// 2. csrfProtection (double submit): a foreign page cannot read our cookie, so it cannot put the value in
//    a header; and a custom header cannot be sent cross-origin without a CORS preflight we never grant.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv } from '../context.ts';
import type { Config } from '../env.ts';
import { errorResponse } from '../http/errors.ts';
import { requestOrigin } from '../http/client-ip.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
export const CSRF_MISMATCH_MESSAGE = 'CSRF token mismatch.';
export const FOREIGN_ORIGIN_MESSAGE = 'Cross-origin request refused.';
/** Laravel's "page expired" status, which the client treats like 401 (docs/product/states.md). */
const CSRF_STATUS = 419 as ContentfulStatusCode;
// As long as the longest session: a token that vanished before the session would make the next write
// answer 419 and log a still-valid user out on the client.
const XSRF_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The licensing API the company's desktop software calls (docs/engineering.md, planned parts;
 * docs/licensing.md): no browser, no cookies, authenticated by the license key in the body, so neither
 * check applies, and a forged cross-site request there gains nothing a plain HTTP client would not have.
 * Exactly this prefix: a path with dot segments is never exempt, whatever the router would make of it.
 */
export const SOFTWARE_API_PREFIX = '/api/licensing/v1/';

export function isSoftwareApiPath(path: string): boolean {
  return path.startsWith(SOFTWARE_API_PREFIX) && !/(^|\/)\.\.?(\/|$)/.test(path);
}

/**
 * The one-click unsubscribe of mailings (RFC 8058; issue 17, item 9): a mail provider POSTs
 * `List-Unsubscribe=One-Click` to the link in the List-Unsubscribe header, with no cookie and no header of
 * ours, so the XSRF check cannot apply. Its authority is the link's signature, made for one user
 * (server/features/mailings/unsubscribe.ts), which a forged cross-site request would need as well, and
 * all it can do is unsubscribe that user. Exactly this path, and only the XSRF check: the Origin check
 * still refuses a foreign page's POST.
 */
export const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/mailing/unsubscribe';

export function isOneClickUnsubscribePath(path: string): boolean {
  return path === ONE_CLICK_UNSUBSCRIBE_PATH;
}

/**
 * Allowed origins: the configured site, and the origin the request itself was addressed to (same-origin
 * by definition). Trusting Host for the latter is safe: a browser sets Host to the server it is talking
 * to and Origin to the page's site, so a foreign page cannot make them agree. The one way to make them
 * agree, DNS rebinding, puts the attacker on their own host name, where the browser sends none of our
 * cookies, so it gains nothing a plain HTTP client would not have. X-Forwarded-Host counts only with
 * TRUST_PROXY (a browser cannot send it cross-site without a preflight, but a direct client could).
 * "null" (sandboxed frames, cross-site redirects) is an opaque, hence foreign, origin.
 */
export function originCheck(ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('Origin');
    if (origin === undefined || isSoftwareApiPath(c.req.path)) return next();
    const allowed = [ctx.config.siteOrigin, requestOrigin(c, ctx.config)];
    if (!allowed.includes(normalizeOrigin(origin) ?? '')) return errorResponse(c, 403, FOREIGN_ORIGIN_MESSAGE);
    return next();
  });
}

export function csrfProtection(_ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!UNSAFE_METHODS.has(c.req.method) || isSoftwareApiPath(c.req.path)) return next();
    if (c.req.method === 'POST' && isOneClickUnsubscribePath(c.req.path)) return next();
    const cookie = getCookie(c, XSRF_COOKIE);
    const header = c.req.header(XSRF_HEADER);
    if (!cookie || !header || !(tokensEqual(cookie, header) || tokensEqual(cookie, safeDecode(header)))) {
      return errorResponse(c, CSRF_STATUS, CSRF_MISMATCH_MESSAGE);
    }
    return next();
  });
}

/** GET /sanctum/csrf-cookie → 204 with the XSRF-TOKEN cookie. */
export function csrfCookieRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/csrf-cookie', (c) => {
    // Keep a well-formed existing token: requests already in flight carry it, and replacing it under
    // them would fail them with 419.
    const existing = getCookie(c, XSRF_COOKIE);
    setXsrfCookie(c, ctx.config, existing && TOKEN_PATTERN.test(existing) ? existing : generateXsrfToken());
    return c.body(null, 204);
  });
}

/** A fresh token (login rotates it, so a token planted or seen before sign-in is useless after). */
export function rotateXsrfToken(c: Context, config: Pick<Config, 'secureCookies'>): void {
  setXsrfCookie(c, config, generateXsrfToken());
}

function generateXsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

function setXsrfCookie(c: Context, config: Pick<Config, 'secureCookies'>, token: string): void {
  // Not HttpOnly: our page scripts must read it to echo it in the header.
  setCookie(c, XSRF_COOKIE, token, { path: '/', sameSite: 'Lax', secure: config.secureCookies, httpOnly: false, maxAge: XSRF_MAX_AGE_SECONDS });
}

/** Constant-time comparison; hashing first gives equal lengths so timingSafeEqual cannot throw or leak length. */
function tokensEqual(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
