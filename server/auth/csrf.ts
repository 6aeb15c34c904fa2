// Cross-site request forgery defences for a JSON API used by our own pages (docs/product/api.md: the client
// fetches GET /sanctum/csrf-cookie, then echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN):
// 1. originCheck: a browser always sends Origin on cross-origin fetches and on every POST; if it names a
//    foreign site, refuse. Hono's csrf() helper is not enough: it ignores JSON requests (docs/engineering.md#known-traps).
// 2. csrfProtection (signed double submit): a foreign page cannot read our cookie, so it cannot put the value
//    in a header; a custom header cannot be sent cross-origin without a CORS preflight we never grant; and
//    the token must be one this server minted for this browser's session or visitor value
//    (server/auth/xsrf-token.ts), so a planted cookie with a matching header is refused too.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv } from '../context.ts';
import type { Session } from '../db/schema.ts';
import { errorResponse } from '../http/errors.ts';
import { requestOrigin } from '../http/client-ip.ts';
import {
  endVisitor,
  markRotated,
  mintXsrfToken,
  requestBinding,
  sessionBinding,
  setXsrfCookie,
  startVisitor,
  wasRotated,
  XSRF_COOKIE,
  xsrfTokenMatches,
  type XsrfContext,
} from './xsrf-token.ts';

export { XSRF_COOKIE } from './xsrf-token.ts';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
export const CSRF_MISMATCH_MESSAGE = 'CSRF token mismatch.';
export const FOREIGN_ORIGIN_MESSAGE = 'Cross-origin request refused.';
/** Laravel's "page expired" status, which the client treats like 401 (docs/product/states.md). */
const CSRF_STATUS = 419 as ContentfulStatusCode;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The machine-facing APIs (docs/architecture.md; server/auth/machine-api.ts): the licensing API and the update
 * API the company's software calls with a license key (docs/licensing.md, docs/updates.md), and the
 * integrations' API called with an API token (docs/integrations.md). No browser and no cookie authenticates
 * there, so neither check applies, and a forged cross-site request gains nothing a plain HTTP client would
 * not have. Exactly these prefixes: a path with dot segments is never exempt, whatever the router would make of it.
 */
export const MACHINE_API_PREFIXES = ['/api/licensing/v1/', '/api/updates/v1/', '/api/v1/'] as const;

export function isMachineApiPath(path: string): boolean {
  return MACHINE_API_PREFIXES.some((prefix) => path.startsWith(prefix)) && !/(^|\/)\.\.?(\/|$)/.test(path);
}

/**
 * The one-click unsubscribe of mailings (RFC 8058; issue 17, item 9): a mail provider POSTs
 * `List-Unsubscribe=One-Click` to the link in the List-Unsubscribe header, with no cookie and no header of
 * ours, so the XSRF check cannot apply. Its authority is the link's signature, made for one user
 * (server/features/mailings/routes.ts), which a forged cross-site request would need as well, and
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
    if (origin === undefined || isMachineApiPath(c.req.path)) return next();
    const allowed = [ctx.config.siteOrigin, requestOrigin(c, ctx.config)];
    if (!allowed.includes(normalizeOrigin(origin) ?? '')) return errorResponse(c, 403, FOREIGN_ORIGIN_MESSAGE);
    return next();
  });
}

/**
 * The header must equal the cookie (double submit) and be a token this server minted for the request's
 * binding: its session cookie when it has one, else its visitor cookie. The binding is read from the
 * cookies themselves, before the session is loaded: a refused request costs no database lookup, and a
 * session that has just expired still has its own write refused or passed on the token's merits.
 */
export function csrfProtection(ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!UNSAFE_METHODS.has(c.req.method) || isMachineApiPath(c.req.path)) return next();
    if (c.req.method === 'POST' && isOneClickUnsubscribePath(c.req.path)) return next();
    const cookie = getCookie(c, XSRF_COOKIE);
    const header = c.req.header(XSRF_HEADER);
    if (!cookie || !header || !(tokensEqual(cookie, header) || tokensEqual(cookie, safeDecode(header)))) {
      return errorResponse(c, CSRF_STATUS, CSRF_MISMATCH_MESSAGE);
    }
    if (!xsrfTokenMatches(ctx.db, cookie, requestBinding(c, ctx.config))) return errorResponse(c, CSRF_STATUS, CSRF_MISMATCH_MESSAGE);
    return next();
  });
}

/** GET /sanctum/csrf-cookie → 204 with the XSRF-TOKEN cookie (and, before sign-in, the visitor cookie it is bound to). */
export function csrfCookieRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/csrf-cookie', (c) => {
    // The session cookie this request brought had ended: loadSession already gave a visitor token.
    if (wasRotated(c)) return c.body(null, 204);
    const binding = requestBinding(c, ctx.config) ?? startVisitor(c, ctx.config);
    // Keep an existing token that is still good for this browser: requests already in flight carry it,
    // and replacing it under them would fail them with 419.
    const existing = getCookie(c, XSRF_COOKIE);
    setXsrfCookie(c, ctx.config, existing && xsrfTokenMatches(ctx.db, existing, binding) ? existing : mintXsrfToken(ctx.db, binding));
    return c.body(null, 204);
  });
}

/**
 * A fresh token whenever the browser's session changes, so a token planted or seen before is useless
 * after: bound to the new session at sign-in (pass it), or to a fresh visitor value when the session ends
 * (pass null: sign-out, a session found expired). Every place that creates or ends a session calls this.
 */
export function rotateXsrfToken(c: Context, ctx: XsrfContext, session: Pick<Session, 'id'> | null): void {
  markRotated(c);
  if (session) {
    endVisitor(c, ctx.config);
    setXsrfCookie(c, ctx.config, mintXsrfToken(ctx.db, sessionBinding(session.id)));
  } else {
    setXsrfCookie(c, ctx.config, mintXsrfToken(ctx.db, startVisitor(c, ctx.config)));
  }
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
