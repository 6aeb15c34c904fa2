// Sessions the way Lucia's current guide teaches (docs/engineering.md#technology-choices): the cookie holds a random token, the
// database holds only its SHA-256, so a leaked database (or backup) cannot be replayed as cookies.
// Expiry slides: a session in use is extended once less than half its lifetime remains, which keeps
// active users signed in while writing to the database at most once per half-lifetime. The sliding expiry
// never passes the session's absolute end (SESSION_REMEMBER_DAYS / SESSION_BROWSER_HOURS, see
// docs/decisions/0004-auth-core.md), so a stolen or forgotten session that keeps being used still ends
// and the user signs in again.
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Session, User } from '../db/schema.ts';
import {
  deleteExpiredSessionsOfUser,
  deleteSession,
  deleteSessionsOfUser,
  getSessionWithUser,
  insertSession,
  updateSessionExpiry,
} from '../db/queries/sessions.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `remember_me` gives a persistent session (30 days, cookie with Max-Age); without it the cookie lives
 * only as long as the browser and the server forgets the session after 2 idle hours, so a shared
 * computer is not left signed in for long.
 */
export const SESSION_LIFETIME_MS = {
  persistent: 30 * DAY_MS,
  browser: 2 * 60 * 60 * 1000,
} as const;

export interface SessionValidation {
  session: Session;
  user: User;
  /** True when this validation extended the expiry (a persistent cookie must then be re-sent). */
  renewed: boolean;
}

/** 32 random bytes (256 bits, above the guide's 160-bit floor) as base64url: 43 cookie-safe characters. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session id stored in the database: hex SHA-256 of the token. A fast hash suffices for 256 random bits. */
export function sessionIdFromToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function lifetimeOf(session: Pick<Session, 'persistent'>): number {
  return session.persistent ? SESSION_LIFETIME_MS.persistent : SESSION_LIFETIME_MS.browser;
}

export function createSession(
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  userId: number,
  options: { persistent: boolean },
): { token: string; session: Session } {
  const token = generateSessionToken();
  const now = ctx.now();
  deleteExpiredSessionsOfUser(ctx.db, userId, now);
  const absoluteExpiresAt = now + (options.persistent ? ctx.config.sessionAbsoluteLifetimeMs.persistent : ctx.config.sessionAbsoluteLifetimeMs.browser);
  const session = insertSession(ctx.db, {
    id: sessionIdFromToken(token),
    user_id: userId,
    expires_at: Math.min(now + (options.persistent ? SESSION_LIFETIME_MS.persistent : SESSION_LIFETIME_MS.browser), absoluteExpiresAt),
    absolute_expires_at: absoluteExpiresAt,
    persistent: options.persistent,
  });
  return { token, session };
}

/**
 * The session and user for a cookie token, or null when the token is unknown, expired (idle or past its
 * absolute end), or belongs to a banned user (a ban must end access at once, not when the cookie runs
 * out). Dead sessions are deleted.
 */
export function validateSessionToken(ctx: Pick<AppContext, 'db' | 'now'>, token: string): SessionValidation | null {
  const id = sessionIdFromToken(token);
  const found = getSessionWithUser(ctx.db, id);
  if (!found) return null;
  const { session, user } = found;
  const now = ctx.now();
  if (now >= session.expires_at || now >= session.absolute_expires_at || user.is_banned) {
    deleteSession(ctx.db, id);
    return null;
  }
  const lifetime = lifetimeOf(session);
  const expiresAt = Math.min(now + lifetime, session.absolute_expires_at);
  // Near the absolute end there is nothing left to extend: no write, no re-sent cookie.
  if (session.expires_at - now < lifetime / 2 && expiresAt > session.expires_at) {
    updateSessionExpiry(ctx.db, id, expiresAt);
    return { session: { ...session, expires_at: expiresAt }, user, renewed: true };
  }
  return { session, user, renewed: false };
}

export function invalidateSession(ctx: Pick<AppContext, 'db'>, sessionId: string): void {
  deleteSession(ctx.db, sessionId);
}

/** Signs a user out everywhere: used at ban, password reset and account deletion. Returns how many ended. */
export function invalidateUserSessions(ctx: Pick<AppContext, 'db'>, userId: number): number {
  return deleteSessionsOfUser(ctx.db, userId);
}
