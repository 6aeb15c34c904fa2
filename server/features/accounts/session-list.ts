// A session as the session lists show it (docs/product/api.md#sessions-password-and-e-mail), for the user's own list and the
// admin's list of a user's sessions: the random public id (never the token or its hash), whether it is the
// asking browser's, browser and system read from the User-Agent, the address and two times.
import Bowser from 'bowser';
import type { Session } from '../../db/schema.ts';

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
