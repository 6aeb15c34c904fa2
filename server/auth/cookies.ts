// The cookies of the auth core, in one place so their attributes agree:
// - the session cookie: HttpOnly (scripts never see the token), SameSite=Lax, Secure over https;
// - `signed_in=1`: a non-secret hint readable by page scripts, so static pages can skip the /api/user
//   call for anonymous readers (docs/engineering.md#keeping-public-pages-light). It grants nothing.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { Config } from '../env.ts';
import type { Session } from '../db/schema.ts';

export const SIGNED_IN_HINT_COOKIE = 'signed_in';

/**
 * Over https the `__Host-` prefix makes browsers refuse the cookie unless it is Secure, host-only and
 * Path=/, so a sibling subdomain cannot plant a session cookie (session fixation). Plain http (local
 * development) cannot use the prefix.
 */
export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-session' : 'session';
}

function baseOptions(config: Pick<Config, 'secureCookies'>): CookieOptions {
  return { path: '/', sameSite: 'Lax', secure: config.secureCookies };
}

export function readSessionCookie(c: Context, config: Pick<Config, 'secureCookies'>): string | undefined {
  return getCookie(c, sessionCookieName(config));
}

export function hasSignedInHint(c: Context): boolean {
  return getCookie(c, SIGNED_IN_HINT_COOKIE) !== undefined;
}

/**
 * Sends the session cookie and the hint. A persistent session gets Max-Age (its remaining lifetime);
 * a browser session gets none, so the browser drops it when it closes.
 */
export function setSessionCookies(
  c: Context,
  config: Pick<Config, 'secureCookies'>,
  token: string,
  session: Pick<Session, 'persistent' | 'expires_at'>,
  now: number,
): void {
  const lifetime = session.persistent ? { maxAge: Math.max(0, Math.floor((session.expires_at - now) / 1000)) } : {};
  setCookie(c, sessionCookieName(config), token, { ...baseOptions(config), ...lifetime, httpOnly: true });
  setCookie(c, SIGNED_IN_HINT_COOKIE, '1', { ...baseOptions(config), ...lifetime, httpOnly: false });
}

export function clearSessionCookies(c: Context, config: Pick<Config, 'secureCookies'>): void {
  deleteCookie(c, sessionCookieName(config), { ...baseOptions(config), httpOnly: true });
  deleteCookie(c, SIGNED_IN_HINT_COOKIE, baseOptions(config));
}

/**
 * The pending two-factor login (server/features/two-factor/routes.ts): HttpOnly, host-only over https
 * like the session cookie, and gone with the step it belongs to.
 */
export function twoFactorCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-two_factor' : 'two_factor';
}

export function setTwoFactorCookie(c: Context, config: Pick<Config, 'secureCookies'>, token: string, maxAgeSeconds: number): void {
  setCookie(c, twoFactorCookieName(config), token, { ...baseOptions(config), maxAge: maxAgeSeconds, httpOnly: true });
}

export function readTwoFactorCookie(c: Context, config: Pick<Config, 'secureCookies'>): string | undefined {
  return getCookie(c, twoFactorCookieName(config));
}

export function clearTwoFactorCookie(c: Context, config: Pick<Config, 'secureCookies'>): void {
  deleteCookie(c, twoFactorCookieName(config), { ...baseOptions(config), httpOnly: true });
}

/**
 * A passkey ceremony's challenge (server/features/passkeys/): the same pattern as the pending two-factor
 * login, HttpOnly and host-only over https, so the answer to a challenge only counts from the browser that
 * asked for it (docs/decisions/0043-passkeys.md).
 */
export function passkeyChallengeCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-passkey_challenge' : 'passkey_challenge';
}

export function setPasskeyChallengeCookie(c: Context, config: Pick<Config, 'secureCookies'>, token: string, maxAgeSeconds: number): void {
  setCookie(c, passkeyChallengeCookieName(config), token, { ...baseOptions(config), maxAge: maxAgeSeconds, httpOnly: true });
}

export function readPasskeyChallengeCookie(c: Context, config: Pick<Config, 'secureCookies'>): string | undefined {
  return getCookie(c, passkeyChallengeCookieName(config));
}

export function clearPasskeyChallengeCookie(c: Context, config: Pick<Config, 'secureCookies'>): void {
  deleteCookie(c, passkeyChallengeCookieName(config), { ...baseOptions(config), httpOnly: true });
}
