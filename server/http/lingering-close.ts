// A lingering close for answers given before the request's body has all arrived (RFC 9112 §9.6;
// docs/decisions/0072-lingering-close.md). A refused upload (413 before reading, 507 when the disk fills
// mid-way, 408 at the body deadline) is answered with `Connection: close`, and Node then ends the
// connection and closes the socket the moment the answer is flushed. Closing a socket with unread bytes
// makes the kernel send a reset; the client, still writing its upload, then fails with EPIPE or
// ECONNRESET and may throw the answer away unread. So such a connection is closed as nginx closes it: the
// answer and a FIN go out, whatever the client still sends is read and dropped, and the socket is closed
// once the client closes too, has sent nothing for `idleMs`, or `maxMs` have passed.
import type http from 'node:http';
import type net from 'node:net';
import { announcesBody } from './body-deadline.ts';

/** nginx's lingering_timeout: a client that has stopped sending is not waited for longer. */
export const LINGER_IDLE_MS = 5_000;
/** nginx's lingering_time: the most a refused body is read in vain. */
export const LINGER_MAX_MS = 30_000;

export interface LingerOptions {
  idleMs?: number;
  maxMs?: number;
}

/** Makes every connection of `server` that closes with its request's body still arriving linger first. */
export function lingerOnEarlyClose(server: http.Server, options: LingerOptions = {}): void {
  const idleMs = options.idleMs ?? LINGER_IDLE_MS;
  const maxMs = options.maxMs ?? LINGER_MAX_MS;
  // The latest request with a body on each connection; a request without one has nothing left to arrive,
  // so the static fast path's GETs are not tracked.
  const withBody = new WeakMap<net.Socket, http.IncomingMessage>();
  server.on('request', (req: http.IncomingMessage) => {
    if (announcesBody(req)) withBody.set(req.socket, req);
  });
  server.on('connection', (socket: net.Socket) => {
    // Node closes a `Connection: close` exchange with destroySoon() once the answer is out (its
    // resOnFinish): the one place to step in before the socket is destroyed.
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const request = withBody.get(socket);
      if (request && !request.complete && !socket.destroyed) linger(socket, request, idleMs, maxMs);
      else destroySoon();
    };
  });
}

function linger(socket: net.Socket, request: http.IncomingMessage, idleMs: number, maxMs: number): void {
  const started = Date.now();
  let lastRead = socket.bytesRead;
  let lastReadAt = started;
  // Node's parser reads the socket itself (no 'data' events), so activity is the byte count moving.
  const watch = setInterval(
    () => {
      const now = Date.now();
      if (socket.bytesRead !== lastRead) {
        lastRead = socket.bytesRead;
        lastReadAt = now;
      }
      if (now - lastReadAt >= idleMs || now - started >= maxMs) close();
    },
    Math.max(10, Math.min(idleMs, maxMs) / 5),
  );
  watch.unref();
  const close = () => {
    clearInterval(watch);
    socket.destroy();
  };
  socket.once('close', () => clearInterval(watch));
  // The client closed its side, or the whole body arrived: nothing is left to read.
  socket.once('end', close);
  request.once('end', close);
  // The answer is queued: the FIN follows it, and the client reads both before anything can reset.
  socket.end();
  // A handler's reader (a web stream that paused the request when its queue filled) takes nothing more:
  // the request flows and its bytes are dropped. A request never read is already dumped by Node.
  request.removeAllListeners('data');
  request.resume();
}
