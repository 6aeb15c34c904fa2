// Where a request really comes from, for rate limits and logs. Forwarded headers are trusted only when
// TRUST_PROXY says a reverse proxy in front of us sets them; otherwise any client could pick its own
// IP (and so its own rate-limit bucket) by sending X-Forwarded-For.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from '../env.ts';

export const UNKNOWN_IP = 'unknown';

export function clientIp(c: Context, config: Pick<Config, 'trustProxy'>): string {
  if (config.trustProxy) {
    // The proxy appends the address it saw; entries to its left came from the client and can be forged.
    const forwarded = lastListEntry(c.req.header('X-Forwarded-For'));
    if (forwarded) return forwarded;
  }
  // Every serving process accepts its own connections (docs/decisions/0022-one-process-model.md), so the
  // socket's peer is the client: no header between our own processes carries an address.
  return socketAddress(c) ?? UNKNOWN_IP;
}

/** The origin (scheme://host[:port]) the client addressed, as the proxy saw it when we sit behind one. */
export function requestOrigin(c: Context, config: Pick<Config, 'trustProxy'>): string {
  const url = new URL(c.req.url);
  if (config.trustProxy) {
    const host = lastListEntry(c.req.header('X-Forwarded-Host'));
    const proto = lastListEntry(c.req.header('X-Forwarded-Proto'));
    if (host) url.host = host;
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
  }
  return url.origin;
}

function socketAddress(c: Context): string | undefined {
  // app.request() in tests (and other non-node adapters) has no socket: getConnInfo then throws.
  try {
    return getConnInfo(c).remote.address ?? undefined;
  } catch {
    return undefined;
  }
}

function lastListEntry(header: string | undefined): string | undefined {
  const entry = header?.split(',').at(-1)?.trim();
  return entry ? entry : undefined;
}
