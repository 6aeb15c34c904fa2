// The deadline for a request's body (issue 17, item 5; docs/decisions/0027-transport-limits.md). Node's own
// requestTimeout is one value for the whole server and would cut a 2 GiB release upload, so it stays off
// (server/server.ts); instead every request that announces a body gets a timer when it arrives, cleared once
// the body has been read to its end. A small JSON or form body that has not arrived within BODY_TIMEOUT_MS
// is answered 408 and its connection closed: a login trickled one byte a minute holds nothing for long.
// Only an admin's upload lifts it (liftBodyDeadline, after the admin guard), so the long wait is never
// granted to a client that has not signed in as an admin.
import type http from 'node:http';
import { createMiddleware } from 'hono/factory';

export const BODY_TIMEOUT_MESSAGE = 'The request took too long to arrive.';

const deadlines = new WeakMap<http.IncomingMessage, NodeJS.Timeout>();

/** True when the request announces a body (GET and HEAD requests of browsers never do). */
export function announcesBody(req: http.IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

/** Starts the body deadline of a request just received; 0 turns it off. */
export function armBodyDeadline(req: http.IncomingMessage, res: http.ServerResponse, timeoutMs: number): void {
  if (timeoutMs <= 0 || req.complete || !announcesBody(req)) return;
  const timer = setTimeout(() => expire(req, res), timeoutMs);
  deadlines.set(req, timer);
  const disarm = () => {
    clearTimeout(timer);
    deadlines.delete(req);
  };
  // 'end': the last byte arrived (read by the handler, or drained by Node after an early answer);
  // 'close': the connection went away first.
  req.once('end', disarm);
  req.once('close', disarm);
}

/** The request may take as long as it needs (a signed-in admin's upload); the connection's idle timeout still applies. */
export function liftBodyDeadline(req: http.IncomingMessage | undefined): void {
  if (!req) return;
  clearTimeout(deadlines.get(req));
  deadlines.delete(req);
}

/**
 * Hono middleware for the upload routes, placed after their admin guard. Through @hono/node-server the
 * node request is `c.env.incoming`; app.request() in tests has none, and nothing is armed there anyway.
 */
export const allowSlowBody = createMiddleware(async (c, next) => {
  liftBodyDeadline((c.env as { incoming?: http.IncomingMessage } | undefined)?.incoming);
  await next();
});

function expire(req: http.IncomingMessage, res: http.ServerResponse): void {
  deadlines.delete(req);
  const socket = req.socket;
  if (!res.headersSent) {
    const body = JSON.stringify({ message: BODY_TIMEOUT_MESSAGE });
    // The rest of the body would never be read: the connection cannot carry another request. Its lingering
    // close (server/http/lingering-close.ts) drops what still arrives, so no reset loses the 408.
    res.writeHead(408, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close', 'Cache-Control': 'no-store' });
    res.end(body);
  } else {
    // Answered early (a refusal before reading), but the body still trickles in: stop listening to it.
    socket.destroy();
  }
  // Whatever still waits for the body (a handler mid-read) sees an aborted request and its late answer
  // goes nowhere; a client that does not close after the 408 is cut off.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
