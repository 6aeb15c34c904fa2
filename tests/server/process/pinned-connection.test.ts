// The tests of several serving processes send each request to a process of their choosing
// (tests/helpers/pinned-connection.ts). A keep-alive connection the server closed while a test waited (5 s
// idle, seen in CI while a test waited for a web worker) must not let the next request land on another
// process: the helper pins a new connection to the same one first. When the server closes it just as a
// request goes out on it (the request meets a reset), the helper sends that request again the same way.
import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectTo } from '../../helpers/pinned-connection.ts';

const NAMES = ['first', 'second'];
let servers: http.Server[] = [];
let port = 0;
/** Set by a test: the next request that arrives on a connection which already answered one meets a reset. */
let resetNextOnKeptConnection = false;
let resets = 0;
const answeredSockets = new WeakSet<object>();

/** Two servers on one port (SO_REUSEPORT), as the product's serving processes are: the kernel picks one per connection. */
beforeAll(async () => {
  servers = NAMES.map((name) =>
    http.createServer((request, response) => {
      if (resetNextOnKeptConnection && answeredSockets.has(request.socket)) {
        resetNextOnKeptConnection = false;
        resets++;
        request.socket.resetAndDestroy();
        return;
      }
      answeredSockets.add(request.socket);
      response.setHeader('X-Served-By', name);
      response.end(name);
    }),
  );
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen({ port, host: '127.0.0.1', reusePort: true }, resolve));
    port = (server.address() as { port: number }).port;
  }
});
afterAll(() => {
  for (const server of servers) server.close();
});

it.each(NAMES)('keeps answers from %s after the server closed the idle connection', async (name) => {
  const connection = await connectTo(port, name);
  try {
    for (let round = 0; round < 20; round++) {
      const socket = connection.socket();
      if (!socket) throw new Error('the pinned connection has no open socket between requests');
      // Closed by the server, and seen closed here (a request sent meanwhile would meet a hang-up instead).
      const closed = once(socket, 'close');
      for (const server of servers) server.closeIdleConnections();
      await closed;
      expect((await connection.request('GET', '/')).servedBy).toBe(name);
    }
  } finally {
    connection.close();
  }
});

it.each(NAMES)('sends a request again, on a new connection to %s, when the kept one was reset as it went out', async (name) => {
  const connection = await connectTo(port, name);
  try {
    const resetsBefore = resets;
    resetNextOnKeptConnection = true;
    const answer = await connection.request('GET', '/again');
    expect(resets).toBe(resetsBefore + 1);
    expect(answer.servedBy).toBe(name);
    expect(answer.text).toBe(name);
  } finally {
    resetNextOnKeptConnection = false;
    connection.close();
  }
});
