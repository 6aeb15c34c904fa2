// The client address rate limits use: the socket's peer, unless TRUST_PROXY says a reverse proxy in front
// sets X-Forwarded-For (then its last entry, the one the proxy appended). No other header counts: the old
// worker-to-main header is gone with the forwarding (docs/decisions/0022-one-process-model.md), and a
// client that sends it anyway picks nothing.
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, rateLimitAddress } from '../../../server/http/client-ip.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';

const app = new Hono().get('/ip', (c) => c.text(clientIp(c, { trustProxy: false }))).get('/ip-behind-proxy', (c) => c.text(clientIp(c, { trustProxy: true })));

let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  server = await listen(http.createServer(getRequestListener(app.fetch)));
});

afterAll(async () => {
  await server.close();
});

const ip = async (pathname: string, headers: Record<string, string> = {}) => (await rawRequest(server.port, pathname, { headers })).text;

describe('clientIp', () => {
  it('is the socket peer, whatever address headers the client forges', async () => {
    expect(await ip('/ip')).toBe('127.0.0.1');
    expect(await ip('/ip', { 'X-Site-Client-IP': '203.0.113.9', 'X-Forwarded-For': '198.51.100.4' })).toBe('127.0.0.1');
  });

  it('takes the last X-Forwarded-For entry only behind a trusted proxy', async () => {
    expect(await ip('/ip-behind-proxy', { 'X-Forwarded-For': '192.0.2.1, 198.51.100.4' })).toBe('198.51.100.4');
    expect(await ip('/ip-behind-proxy')).toBe('127.0.0.1');
  });
});

// Issue 17 item 8: one subscriber usually holds a whole IPv6 /64, so rate limits count it as one client.
describe('rateLimitAddress', () => {
  it('keeps IPv4 addresses and anything that is not an address as they are', () => {
    expect(rateLimitAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('unknown')).toBe('unknown');
  });

  it('turns IPv4-mapped IPv6 addresses into their IPv4 address', () => {
    expect(rateLimitAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('::FFFF:cb00:7109')).toBe('203.0.113.9');
  });

  it('reduces IPv6 addresses to their /64, whatever their spelling', () => {
    const prefix = '2001:db8:1:2::/64';
    expect(rateLimitAddress('2001:db8:1:2::a')).toBe(prefix);
    expect(rateLimitAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(prefix);
    expect(rateLimitAddress('2001:db8:1:2:0:0:0:1')).toBe(prefix);
    expect(rateLimitAddress('2001:db8:1:3::a')).toBe('2001:db8:1:3::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
