// The tests of several serving processes send each request to a process of their choosing
// (tests/helpers/pinned-connection.ts). A keep-alive connection the server closed while a test waited (5 s
// idle, seen in CI while a test waited for a web worker) must not let the next request land on another
// process: the helper pins a new connection to the same one first.
import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectTo } from '../../helpers/pinned-connection.ts';

const NAMES = ['first', 'second'];
let servers: http.Server[] = [];
let port = 0;

/** Two servers on one port (SO_REUSEPORT), as the product's serving processes are: the kernel picks one per connection. */
beforeAll(async () => {
  servers = NAMES.map((name) =>
    http.createServer((_request, response) => {
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
