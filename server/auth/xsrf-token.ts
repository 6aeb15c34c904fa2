// The XSRF token, signed and bound to who sends it (issue 17, item 9; OWASP's "signed double-submit
// cookie"; docs/decisions/0027-transport-limits.md). A plain double submit accepts any cookie value equal
// to the header, so a cookie planted from a sibling subdomain, with the same value in a header, passed.
// Now a token is `nonce.HMAC(server secret, binding | nonce)`, where the binding is
// - for a signed-in browser: its session (the id is the SHA-256 of the session cookie, which is HttpOnly);
// - before sign-in: a random visitor value in its own HttpOnly cookie (`__Host-` over https, so no sibling
//   subdomain can plant it), made by GET /sanctum/csrf-cookie.
// A token minted for another session or another visitor, or made up, does not verify.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Db } from '../db/client.ts';
import type { Config } from '../env.ts';
import { readSessionCookie } from './cookies.ts';
import { getServerSecret } from './server-secret.ts';
import { sessionIdFromToken } from './sessions.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
const SECRET_KEY = 'xsrf_secret';
// As long as the longest session: a token that vanished before the session would make the next write
// answer 419 (the client then fetches a new one and tries again, src/lib/api/request.ts).
const XSRF_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const NONCE_BYTES = 16;
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const VISITOR_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type XsrfConfig = Pick<Config, 'secureCookies'>;
export interface XsrfContext {
  db: Db;
  config: XsrfConfig;
}

/** The visitor cookie: host-only and Secure over https (the `__Host-` prefix makes browsers insist). */
export function visitorCookieName(config: XsrfConfig): string {
  return config.secureCookies ? '__Host-xsrf_visitor' : 'xsrf_visitor';
}

/** What this request's token must be bound to: its session cookie, else its visitor cookie, else nothing yet. */
export function requestBinding(c: Context, config: XsrfConfig): string | null {
  const session = readSessionCookie(c, config);
  if (session) return sessionBinding(sessionIdFromToken(session));
  const visitor = getCookie(c, visitorCookieName(config));
  return visitor && VISITOR_PATTERN.test(visitor) ? `visitor:${visitor}` : null;
}

export function sessionBinding(sessionId: string): string {
  return `session:${sessionId}`;
}

function mac(db: Db, binding: string, nonce: string): string {
  return createHmac('sha256', getServerSecret(db, SECRET_KEY)).update(`${binding}|${nonce}`).digest('base64url');
}

export function mintXsrfToken(db: Db, binding: string): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  return `${nonce}.${mac(db, binding, nonce)}`;
}

/** True when `token` was minted by this server for `binding`. Constant time in the token's content. */
export function xsrfTokenMatches(db: Db, token: string, binding: string | null): boolean {
  const parts = TOKEN_PATTERN.exec(token);
  if (!parts || binding === null) return false;
  const [, nonce = '', given = ''] = parts;
  return timingSafeEqual(Buffer.from(given), Buffer.from(mac(db, binding, nonce)));
}

// Answers that already carry a fresh token (rotateXsrfToken ran, e.g. loadSession found the session ended):
// GET /sanctum/csrf-cookie must not replace it with one for the cookies the request came with.
const rotatedAnswers = new WeakSet<Context>();

export function markRotated(c: Context): void {
  rotatedAnswers.add(c);
}

export function wasRotated(c: Context): boolean {
  return rotatedAnswers.has(c);
}

export function setXsrfCookie(c: Context, config: XsrfConfig, token: string): void {
  // Not HttpOnly: our page scripts must read it to echo it in the header.
  setCookie(c, XSRF_COOKIE, token, { path: '/', sameSite: 'Lax', secure: config.secureCookies, httpOnly: false, maxAge: XSRF_MAX_AGE_SECONDS });
}

/** A fresh visitor value in its cookie; returns the binding it gives. */
export function startVisitor(c: Context, config: XsrfConfig): string {
  const visitor = randomBytes(32).toString('base64url');
  setCookie(c, visitorCookieName(config), visitor, { path: '/', sameSite: 'Lax', secure: config.secureCookies, httpOnly: true, maxAge: XSRF_MAX_AGE_SECONDS });
  return `visitor:${visitor}`;
}

export function endVisitor(c: Context, config: XsrfConfig): void {
  deleteCookie(c, visitorCookieName(config), { path: '/', secure: config.secureCookies, httpOnly: true });
}
