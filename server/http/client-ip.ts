// Where a request really comes from, for rate limits and logs. Forwarded headers are trusted only when
// TRUST_PROXY says a reverse proxy in front of us sets them; otherwise any client could pick its own
// IP (and so its own rate-limit bucket) by sending X-Forwarded-For.
//
// Requests a web worker forwards (docs/decisions/0014-web-workers.md) arrive on the main process's
// unix socket, which has no peer address: the worker names the client's address in CLIENT_IP_HEADER.
// That header counts only on requests the unix-socket listener marked; on the public port anyone could
// send it.
import type { IncomingMessage } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from '../env.ts';

export const UNKNOWN_IP = 'unknown';
/** Set by a web worker on every request it forwards (after removing any copy the client sent). */
export const CLIENT_IP_HEADER = 'x-site-client-ip';

const fromWebWorker = new WeakSet<IncomingMessage>();

/** Called by the main process's unix-socket listener only: the request came from one of our web workers. */
export function markForwardedByWebWorker(req: IncomingMessage): void {
  fromWebWorker.add(req);
}

export function clientIp(c: Context, config: Pick<Config, 'trustProxy'>): string {
  if (config.trustProxy) {
    // The proxy appends the address it saw; entries to its left came from the client and can be forged.
    const forwarded = lastListEntry(c.req.header('X-Forwarded-For'));
    if (forwarded) return forwarded;
  }
  return webWorkerClientIp(c) ?? socketAddress(c) ?? UNKNOWN_IP;
}

function webWorkerClientIp(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || !fromWebWorker.has(incoming)) return undefined;
  const value = incoming.headers[CLIENT_IP_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
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
