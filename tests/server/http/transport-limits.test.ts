// The transport limits of every serving process (issue 17, item 5; docs/decisions/0027-transport-limits.md)
// through the real listener on a real port: a body that trickles in is answered 408 and its connection
// closed within the body deadline, an admin's upload slower than that deadline still succeeds, and one
// address holding the maximum of connections is refused a further one while other work is served.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_TIMEOUT_MESSAGE } from '../../../server/http/body-deadline.ts';
import { connectionCap, TOO_MANY_CONNECTIONS_MESSAGE } from '../../../server/http/connection-cap.ts';
import { loadConfig } from '../../../server/env.ts';
import { createHttpServer } from '../../../server/server.ts';
import { createUser, login, type LoggedInClient } from '../../helpers/auth.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { openStreamedUpload } from '../../helpers/streamed-upload.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const BODY_TIMEOUT_MS = 800;
const MAX_CONNECTIONS = 4;

let ctx: TestContext;
let admin: LoggedInClient;
let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  ctx = createTestContext();
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  admin = await login(ctx.app, 'admin@example.com');
  const server = createHttpServer({
    app: ctx.app,
    getSite: () => null,
    mediaDir: ctx.config.uploadsDir,
    bodyTimeoutMs: BODY_TIMEOUT_MS,
    maxConnectionsPerClient: MAX_CONNECTIONS,
  });
  ({ port, close } = await listen(server));
});
afterAll(async () => {
  await close();
  ctx.cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawConnection {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves with the time since `since` when the server closes the connection. */
  closed: Promise<number>;
}

function connect(since = performance.now()): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now() - since)));
    socket.once('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

function authHeaders(): Record<string, string> {
  return { Cookie: admin.cookieHeader, 'X-XSRF-TOKEN': admin.xsrf ?? '', 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
}

describe('the body deadline', () => {
  it('answers a login body trickled in too slowly with 408 and closes the connection within the deadline', async () => {
    const started = performance.now();
    const connection = await connect(started);
    const body = JSON.stringify({ email: 'admin@example.com', password: 'x', remember_me: false });
    connection.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `Cookie: ${admin.cookieHeader}\r\nX-XSRF-TOKEN: ${admin.xsrf ?? ''}\r\n\r\n${body.slice(0, 1)}`,
    );
    // One byte every 300 ms: the connection is never idle long, but the body would take ~20 s.
    const trickle = setInterval(() => connection.socket.write(body.slice(1, 2)), 300);
    try {
      const closedAfter = await connection.closed;
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(connection.received()).toContain(BODY_TIMEOUT_MESSAGE);
      expect(closedAfter).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS * 0.9);
      expect(closedAfter).toBeLessThan(BODY_TIMEOUT_MS + 1500);
      // The handler that was waiting for the body ends quietly: a slow client is not a server failure.
      await sleep(100);
      expect(ctx.logLines.filter((line) => line.includes('failed'))).toEqual([]);
    } finally {
      clearInterval(trickle);
    }
  });

  it('gives no long wait on an upload route to a request that is not an admin’s: refused and closed within the deadline', async () => {
    const connection = await connect();
    connection.socket.write(
      'POST /api/downloads/store HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n' +
        `Cookie: ${admin.cookieHeader.replace(/session=[^;]*/, 'session=stolen')}\r\nX-XSRF-TOKEN: ${admin.xsrf ?? ''}\r\n\r\n--x`,
    );
    const trickle = setInterval(() => connection.socket.write('a'), 300);
    try {
      const closedAfter = await connection.closed;
      expect(connection.received()).toMatch(/^HTTP\/1\.1 (401|403|419) /);
      expect(closedAfter).toBeLessThan(BODY_TIMEOUT_MS + 1500);
    } finally {
      clearInterval(trickle);
    }
  });

  it('lets an admin’s upload take longer than the deadline', async () => {
    const content = Buffer.from('release bytes '.repeat(64));
    const upload = openStreamedUpload({
      url: new URL(`http://127.0.0.1:${port}/api/downloads/store`),
      headers: authHeaders(),
      fields: { title: 'Slow release', downloadable: '1' },
      file: { name: 'slow.bin', type: 'application/octet-stream', size: content.length },
    });
    await upload.write(upload.head);
    const started = performance.now();
    // Four pieces over ~3 deadlines.
    for (let offset = 0; offset < content.length; offset += content.length / 4) {
      await upload.write(content.subarray(offset, offset + content.length / 4));
      await sleep(BODY_TIMEOUT_MS * 0.75);
    }
    upload.request.end(upload.tail);
    const answer = await upload.answer;
    expect(performance.now() - started).toBeGreaterThan(BODY_TIMEOUT_MS * 2);
    expect(answer.status, answer.body).toBe(201);
  });

  it('leaves a body that arrived in time alone: its keep-alive connection serves the next request after the deadline', async () => {
    const connection = await connect();
    const body = '{}';
    connection.socket.write(
      `PUT /api/user/update/${admin.user.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `Cookie: ${admin.cookieHeader}\r\nX-XSRF-TOKEN: ${admin.xsrf ?? ''}\r\n\r\n${body}`,
    );
    try {
      await sleep(BODY_TIMEOUT_MS * 1.5);
      // The body was read (an empty profile change is fine), and nothing fires later.
      expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
      connection.socket.write('GET /sanctum/csrf-cookie HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await sleep(200);
      expect(connection.received().match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 204']);
    } finally {
      connection.socket.destroy();
    }
  });
});

describe('connections per client address', () => {
  it('refuses one connection over the cap from the same address and serves again once one closes', async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => connect()));
    try {
      // Give the server time to count them all.
      await sleep(50);
      const extra = await connect();
      await extra.closed;
      expect(extra.received()).toMatch(/^HTTP\/1\.1 503 /);
      expect(extra.received()).toContain(TOO_MANY_CONNECTIONS_MESSAGE);

      // The held connections are still served.
      const first = held[0]!;
      first.socket.write('GET /sanctum/csrf-cookie HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await sleep(200);
      expect(first.received()).toMatch(/^HTTP\/1\.1 204 /);

      // One closes: a new connection is accepted.
      held.pop()!.socket.destroy();
      await sleep(50);
      const answer = await rawRequest(port, '/sanctum/csrf-cookie');
      expect(answer.status).toBe(204);
    } finally {
      for (const connection of held) connection.socket.destroy();
    }
  });

  it('is off behind a trusted proxy, where every connection comes from the proxy', () => {
    const proxied = loadConfig({ ...ctx.env, TRUST_PROXY: '1', MAX_CONNECTIONS_PER_CLIENT: '64' });
    expect(connectionCap(proxied)).toBe(0);
    expect(connectionCap(loadConfig({ ...ctx.env, MAX_CONNECTIONS_PER_CLIENT: '64' }))).toBe(64);
    expect(loadConfig(ctx.env).maxConnectionsPerClient).toBe(64);
    expect(loadConfig(ctx.env).bodyTimeoutMs).toBe(30_000);
  });
});
