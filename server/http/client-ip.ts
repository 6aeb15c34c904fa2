// Where a request really comes from, for rate limits and logs. Forwarded headers are trusted only when
// TRUST_PROXY says a reverse proxy in front of us sets them; otherwise any client could pick its own
// IP (and so its own rate-limit bucket) by sending X-Forwarded-For.
import { isIPv4, isIPv6 } from 'node:net';
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

/**
 * The address part of every rate-limit key (issue 17, item 8): IPv4 as it is, an IPv4-mapped IPv6
 * address as its IPv4, any other IPv6 address as its /64 prefix. One subscriber (one home or one server)
 * usually gets a whole /64 and can pick any address in it, so counting single IPv6 addresses would give
 * a client 2^64 fresh buckets. Anything that is not an IP address (UNKNOWN_IP) is kept as it is.
 */
export function rateLimitAddress(ip: string): string {
  if (isIPv4(ip)) return ip;
  const address = ip.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) names the interface, not the client
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
