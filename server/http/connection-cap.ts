// At most MAX_CONNECTIONS_PER_CLIENT open connections from one client address per serving process
// (issue 17, item 5; docs/decisions/0027-transport-limits.md). IPv6 clients count per /64 like the rate
// limits (rateLimitAddress). Each process counts its own connections: the kernel spreads one client's
// connections over the processes, so with P processes a client holds at most P × the cap. Sharing the
// count through SQLite would cost a write per connection on the static fast path.
// Behind a trusted proxy (TRUST_PROXY) every connection comes from the proxy, so the cap is off there and
// belongs to the proxy (nginx's limit_conn), which sees the clients.
import type net from 'node:net';
import type { Config } from '../env.ts';
import { rateLimitAddress } from './client-ip.ts';

export const TOO_MANY_CONNECTIONS_MESSAGE = 'Too many connections from your address.';

/** The cap a serving process applies: MAX_CONNECTIONS_PER_CLIENT, or none behind a trusted proxy (every peer is the proxy). */
export function connectionCap(config: Pick<Config, 'trustProxy' | 'maxConnectionsPerClient'>): number {
  return config.trustProxy ? 0 : config.maxConnectionsPerClient;
}

export function capConnectionsPerClient(server: net.Server, maxPerClient: number): void {
  if (maxPerClient <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: net.Socket) => {
    const key = rateLimitAddress(socket.remoteAddress ?? 'unknown');
    const count = open.get(key) ?? 0;
    if (count >= maxPerClient) return refuse(socket);
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

/** A short 503 before any request is read (nothing of the request is parsed), then the connection closes. */
function refuse(socket: net.Socket): void {
  socket.pause();
  const body = `${TOO_MANY_CONNECTIONS_MESSAGE}\n`;
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
}
