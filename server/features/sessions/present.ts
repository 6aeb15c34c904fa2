// A session as the session lists show it (docs/product/api.md#sessions-password-and-e-mail), for the user's own list and the
// admin's list of a user's sessions: the random public id (never the token or its hash), whether it is the
// asking browser's, browser and system read from the User-Agent, the address and two times. And the answer of
// every login and of GET /api/user: the signed-in user with their licenses (accountPayload).
import Bowser from 'bowser';
import type { Config } from '../../env.ts';
import type { Db } from '../../db/client.ts';
import type { Session, User } from '../../db/schema.ts';
import { firstAdminEmail } from '../../db/queries/users.ts';
import { isAdmin } from '../../auth/guards.ts';
import { toPublicUser, type PublicUser } from '../../auth/public-user.ts';
import { countUnreadInbox } from '../inbox/index.ts';
import { getLicensesOfUser } from '../licensing/index.ts';
import { presentLicenses } from '../licensing/index.ts';

export interface SessionView {
  id: string;
  current: boolean;
  browser: string | null;
  system: string | null;
  ip: string | null;
  created_at: string;
  last_active_at: string;
}

/** "Chrome 131", "Safari 17", "Firefox"; null when the header names nothing bowser knows. */
function browserOf(parsed: Bowser.Parser.ParsedResult): string | null {
  const { name, version } = parsed.browser;
  if (!name) return null;
  // The major version tells browsers apart; the rest (131.0.6778.85) is noise in a list.
  const major = version?.split('.')[0];
  return major ? `${name} ${major}` : name;
}

/** "iOS 17.1", "Windows 10", "Linux"; null when unknown. */
function systemOf(parsed: Bowser.Parser.ParsedResult): string | null {
  const { name, versionName, version } = parsed.os;
  if (!name) return null;
  const shown = versionName ?? version;
  return shown ? `${name} ${shown}` : name;
}

/** Browser and system of a User-Agent header (bowser, MIT: docs/decisions/0024-session-control.md). */
export function describeUserAgent(userAgent: string | null): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  try {
    const parsed = Bowser.parse(userAgent);
    return { browser: browserOf(parsed), system: systemOf(parsed) };
  } catch {
    // Whatever a client sends as its User-Agent must never break the list.
    return { browser: null, system: null };
  }
}

/** The list's order: the asking browser's session first, then the most recently used. */
export function presentSessions(sessions: readonly Session[], currentSessionId: string | null): SessionView[] {
  const views = sessions.map((session) => ({
    id: session.public_id,
    current: session.id === currentSessionId,
    ...describeUserAgent(session.user_agent),
    ip: session.ip,
    created_at: session.created_at,
    last_active_at: new Date(session.last_active_at).toISOString(),
  }));
  return views.sort((a, b) => Number(b.current) - Number(a.current));
}

/** The signed-in user as their own session answers show it: `two_factor_required` says an admin must enrol first. */
export type SessionUser = PublicUser & { two_factor_required: boolean };

/**
 * How long a process reuses the first admin's address (the support address without SUPPORT_EMAIL). It changes
 * only when admins do, and GET /api/user asks on every signed-in page load: reading it there cost about a
 * quarter of that answer's time (8,500 → 11,600 answers a second without it, one serving process, wrk -c50).
 * A new admin, or a banned one, shows in the answer within this time.
 */
export const SUPPORT_EMAIL_REUSE_MS = 60_000;
const supportEmailRead = new WeakMap<Db, { email: string | null; readAt: number }>();

/** SUPPORT_EMAIL, else the oldest admin's address who can sign in (read at most once a SUPPORT_EMAIL_REUSE_MS per connection). */
function supportEmail(ctx: { db: Db; config: Pick<Config, 'supportEmail'> }, now: number): string | null {
  if (ctx.config.supportEmail !== undefined) return ctx.config.supportEmail;
  const read = supportEmailRead.get(ctx.db);
  if (read && now >= read.readAt && now - read.readAt < SUPPORT_EMAIL_REUSE_MS) return read.email;
  const email = firstAdminEmail(ctx.db) ?? null;
  supportEmailRead.set(ctx.db, { email, readAt: now });
  return email;
}

/**
 * The `{ user, licenses, support_email, inbox_unread }` answer of login and GET /api/user (docs/product/api.md): the user's own
 * licenses, keys and machines included (docs/admin-api.md#the-license-object-license), their status as of `now`;
 * the address the dashboard names when a license request fails (SUPPORT_EMAIL, else the first admin's;
 * docs/product/accounts.md#dashboard); and for admins the inbox's unread count, which the nav bar shows as a badge
 * (docs/product/admin.md#inbox): no extra request on any page. Null for everyone else.
 * `twoFactorRequired`: an admin who must turn two-factor on before any admin tool answers
 * (docs/product/accounts.md#two-factor-sign-in).
 */
export function accountPayload(ctx: { db: Db; config: Pick<Config, 'supportEmail'> }, user: User, now: number, options: { twoFactorRequired: boolean }) {
  return {
    user: { ...toPublicUser(user), two_factor_required: options.twoFactorRequired } satisfies SessionUser,
    licenses: presentLicenses(ctx.db, getLicensesOfUser(ctx.db, user.id), { viewer: user, now }),
    support_email: supportEmail(ctx, now),
    inbox_unread: isAdmin(user) ? countUnreadInbox(ctx.db) : null,
  };
}
