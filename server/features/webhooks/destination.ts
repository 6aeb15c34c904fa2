// Where a webhook may go (docs/integrations.md#delivery). An admin types the URL, but the address it resolves
// to is what the request reaches, and DNS can change between saving and sending (or answer differently on
// purpose): so the check runs on every send, on the address the connection is made to. Loopback, private,
// link-local, carrier-grade NAT, documentation, multicast and reserved ranges are refused unless
// WEBHOOKS_ALLOW_PRIVATE is set (tests, intranets).
import { BlockList, isIP } from 'node:net';
import dns from 'node:dns';

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] ?? null;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = parseInt(hex[1] ?? '0', 16);
  const low = parseInt(hex[2] ?? '0', 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    return v4 !== null ? internal.check(v4, 'ipv4') : internal.check(address, 'ipv6');
  }
  return true;
}

export class DestinationRefused extends Error {}

/** Why a URL can never be a webhook destination, or null. Checked when it is saved; the address is checked at send time. */
export function urlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'The url must be a full http:// or https:// address.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The url must be a full http:// or https:// address.';
  if (url.username || url.password) return 'The url must not hold a user name or password.';
  if (text.length > 2000) return 'The url may not be greater than 2000 characters.';
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves the host and refuses it when any address it resolves to is
 * internal (one bad answer is enough: a client may pick any of them).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate && list.some((entry) => isInternalAddress(entry.address))) {
        return callback(new DestinationRefused(`${hostname} resolves to an internal address`), []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new DestinationRefused(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}

/** An IP literal host is never looked up by Node: it is checked here instead. */
export function refusedLiteral(url: URL, allowPrivate: boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0 || allowPrivate) return null;
  return isInternalAddress(host) ? `${host} is an internal address` : null;
}
