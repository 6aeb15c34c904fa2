// Sessions the way Lucia's current guide teaches (docs/engineering.md#technology-choices): the cookie holds a random token, the
// database holds only its SHA-256, so a leaked database (or backup) cannot be replayed as cookies.
// Expiry slides: a session in use is extended once less than half its lifetime remains, which keeps
// active users signed in while writing to the database at most once per half-lifetime. The sliding expiry
// never passes the session's absolute end (SESSION_REMEMBER_DAYS / SESSION_BROWSER_HOURS, see
// docs/decisions/0004-auth-core.md), so a stolen or forgotten session that keeps being used still ends
// and the user signs in again.
//
// Each session also records where it was started (IP, User-Agent) and when it was last used, for the user's
// list of sessions (docs/product/accounts.md#sessions); that list names sessions by a random public id, never
// by anything derived from the token (docs/decisions/0024-session-control.md).
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Session, User } from '../db/schema.ts';
import {
  deleteExpiredSessionsOfUser,
  deleteSession,
  deleteSessionsOfUser,
  deleteSessionsOfUserExcept,
  getSessionWithUser,
  insertSession,
  updateSessionActivity,
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

/**
 * last_active_at is refreshed at most this often. A write per request would queue every signed-in request
 * behind SQLite's one writer (docs/architecture.md#speed); "last active" to the minute is all the list needs.
 */
export const LAST_ACTIVE_RESOLUTION_MS = 60_000;

/** User-Agent headers are kept to this length: enough to name browser and system, bounded against abuse. */
export const SESSION_USER_AGENT_MAX = 512;

/** Where a session was started from: the client's address (server/http/client-ip.ts) and User-Agent. */
export interface SessionClient {
  ip: string | null;
  userAgent: string | null;
}

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

/** The id the session list shows: 96 random bits, unrelated to the token (16 base64url characters). */
export function generatePublicSessionId(): string {
  return randomBytes(12).toString('base64url');
}

export function lifetimeOf(session: Pick<Session, 'persistent'>): number {
  return session.persistent ? SESSION_LIFETIME_MS.persistent : SESSION_LIFETIME_MS.browser;
}

export function createSession(
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  userId: number,
  options: { persistent: boolean; client?: SessionClient; signedInWith?: 'password' | 'passkey' },
): { token: string; session: Session } {
  const token = generateSessionToken();
  const now = ctx.now();
  deleteExpiredSessionsOfUser(ctx.db, userId, now);
  const absoluteExpiresAt = now + (options.persistent ? ctx.config.sessionAbsoluteLifetimeMs.persistent : ctx.config.sessionAbsoluteLifetimeMs.browser);
  const session = insertSession(ctx.db, {
    id: sessionIdFromToken(token),
    public_id: generatePublicSessionId(),
    user_id: userId,
    expires_at: Math.min(now + (options.persistent ? SESSION_LIFETIME_MS.persistent : SESSION_LIFETIME_MS.browser), absoluteExpiresAt),
    absolute_expires_at: absoluteExpiresAt,
    persistent: options.persistent,
    ip: options.client?.ip ?? null,
    user_agent: options.client?.userAgent?.slice(0, SESSION_USER_AGENT_MAX) ?? null,
    last_active_at: now,
    created_at: new Date(now).toISOString(),
    signed_in_with: options.signedInWith ?? 'password',
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
  const renewed = session.expires_at - now < lifetime / 2 && expiresAt > session.expires_at;
  const touched = now - session.last_active_at >= LAST_ACTIVE_RESOLUTION_MS;
  // A row made before public ids existed gets one on its next use, so it can be listed and signed out.
  const needsPublicId = session.public_id === '';
  if (!renewed && !touched && !needsPublicId) return { session, user, renewed: false };
  const activity = {
    expires_at: renewed ? expiresAt : session.expires_at,
    last_active_at: touched ? now : session.last_active_at,
    public_id: needsPublicId ? generatePublicSessionId() : session.public_id,
  };
  updateSessionActivity(ctx.db, id, activity);
  return { session: { ...session, ...activity }, user, renewed };
}

export function invalidateSession(ctx: Pick<AppContext, 'db'>, sessionId: string): void {
  deleteSession(ctx.db, sessionId);
}

/** Signs a user out everywhere: used at ban, password reset and account deletion. Returns how many ended. */
export function invalidateUserSessions(ctx: Pick<AppContext, 'db'>, userId: number): number {
  return deleteSessionsOfUser(ctx.db, userId);
}

/** Signs a user out everywhere but `keepSessionId` (password and e-mail change). Returns how many ended. */
export function invalidateOtherSessions(ctx: Pick<AppContext, 'db'>, userId: number, keepSessionId: string | null): number {
  return keepSessionId ? deleteSessionsOfUserExcept(ctx.db, userId, keepSessionId) : deleteSessionsOfUser(ctx.db, userId);
}
