// The lingering close of every serving process (docs/decisions/0072-lingering-close.md), through the real
// listener on a real port and a raw socket that keeps writing like an uploading client: an answer given
// before the body has arrived (refused unread, or after reading part of it) reaches the client with a FIN,
// and what the client still sends is read, not answered with a reset; the connection is then closed once
// the client is quiet or the longest linger has passed, and a request sent whole is closed at once.
import type http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../server/server.ts';
import { listen } from '../../helpers/raw-http.ts';

const MiB = 1024 * 1024;
const IDLE_MS = 400;
const MAX_MS = 1_500;
const ANNOUNCED_BYTES = 256 * MiB;

let server: http.Server;
let port: number;
let close: () => Promise<void>;

/** Refuses at once (`/refuse`, a 413 before reading) or after reading 1 MiB of the body (`/read-then-refuse`, a full disk's 507). */
async function refusingApp(request: Request): Promise<Response> {
  const headers = { 'Content-Type': 'application/json', Connection: 'close' };
  if (new URL(request.url).pathname === '/read-then-refuse' && request.body) {
    const reader = request.body.getReader();
    for (let read = 0; read < MiB;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
    }
    return new Response(JSON.stringify({ message: 'full' }), { status: 507, headers });
  }
  return new Response(JSON.stringify({ message: 'too large' }), { status: 413, headers });
}

beforeAll(async () => {
  server = createHttpServer({ app: { fetch: refusingApp }, getSite: () => null, mediaDir: '/nonexistent', linger: { idleMs: IDLE_MS, maxMs: MAX_MS } });
  ({ port, close } = await listen(server));
});
afterAll(() => close());

interface Upload {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves once the server has sent its FIN (the answer is complete before it). */
  ended: Promise<void>;
  /** performance.now() when the connection was opened. */
  started: number;
  /** Resolves with the socket error, if any, when the connection closes. */
  closed: Promise<{ error: Error | undefined }>;
  write: (data: Buffer | string) => Promise<Error | undefined>;
}

/** Opens a connection that may keep writing after the server's FIN, as an uploading client does. */
function startUpload(pathname: string, bodyBytesSent: number, announcedBytes = ANNOUNCED_BYTES): Promise<Upload> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let text = '';
    let error: Error | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (failure) => (error = failure));
    const ended = new Promise<void>((done) => socket.once('end', () => done()));
    const closed = new Promise<{ error: Error | undefined }>((done) => socket.once('close', () => done({ error })));
    const write = (data: Buffer | string) => new Promise<Error | undefined>((done) => socket.write(data, (failure) => done(failure ?? undefined)));
    socket.once('connect', () => {
      void write(`POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${announcedBytes}\r\n\r\n`);
      void write(Buffer.alloc(bodyBytesSent, 0x61));
      resolve({ socket, started, received: () => text, ended, closed, write });
    });
    socket.once('error', reject);
  });
}

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

describe('a connection answered before its body arrived', () => {
  for (const [pathname, status, message] of [
    ['/refuse', 413, 'too large'],
    ['/read-then-refuse', 507, 'full'],
  ] as const) {
    it(`gets the ${status} and a FIN, then has what it still sends read rather than reset (${pathname})`, async () => {
      const upload = await startUpload(pathname, 2 * MiB);
      await upload.ended;
      expect(statusOf(upload.received())).toBe(status);
      expect(upload.received()).toMatch(/\r\nconnection: close\r\n/i);
      expect(upload.received().endsWith(JSON.stringify({ message }))).toBe(true);

      // A client that has not noticed yet goes on sending: 8 MiB more, every write taken.
      const chunk = Buffer.alloc(256 * 1024, 0x62);
      const failures: (Error | undefined)[] = [];
      for (let sent = 0; sent < 8 * MiB; sent += chunk.length) failures.push(await upload.write(chunk));
      expect(failures.filter(Boolean)).toEqual([]);
      upload.socket.end();
      const { error } = await upload.closed;
      expect(error).toBeUndefined();
    });
  }

  it('is closed once the client has sent nothing for the idle time', async () => {
    const upload = await startUpload('/refuse', 64 * 1024);
    await upload.ended;
    expect(statusOf(upload.received())).toBe(413);
    const closedAfterMs = await serverClosesAllConnections(upload.started);
    expect(closedAfterMs).toBeGreaterThanOrEqual(IDLE_MS);
    expect(closedAfterMs).toBeLessThan(MAX_MS);
    upload.socket.destroy();
  });

  it('is closed after the longest linger however steadily the client still sends', async () => {
    const upload = await startUpload('/refuse', 64 * 1024);
    await upload.ended;
    const trickle = setInterval(() => void upload.write(Buffer.alloc(1024, 0x63)), IDLE_MS / 4);
    try {
      expect(await serverClosesAllConnections(upload.started)).toBeGreaterThanOrEqual(MAX_MS);
    } finally {
      clearInterval(trickle);
      upload.socket.destroy();
    }
  });
});

describe('a connection answered after its whole body arrived', () => {
  it('is closed by the server at once, with nothing left to read', async () => {
    const upload = await startUpload('/refuse', 1024, 1024);
    await upload.ended;
    expect(statusOf(upload.received())).toBe(413);
    expect(await serverClosesAllConnections(upload.started)).toBeLessThan(IDLE_MS);
    upload.socket.destroy();
  });
});

/**
 * Ms from `since` until the server holds no connection. The client keeps its side open (half-open, as
 * after the server's FIN), so only the server can have closed it.
 */
async function serverClosesAllConnections(since: number): Promise<number> {
  const open = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return performance.now() - since;
}
