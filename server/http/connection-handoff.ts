// Web workers hand API connections to the main process whole (docs/decisions/0019-api-connection-handoff.md).
// A worker used to forward every API request over the main process's unix socket: each one parsed twice
// and its answer copied through a second process, which on two cores cost the API about a third of its
// throughput (`npm run bench`). Now a worker looks at the first request of a new connection: when it is a
// body-less request for the API, the socket itself (and the bytes already read) goes to the main process,
// which answers it and everything else on that connection directly. Any other first request is served by
// the worker as before, and API requests arriving later on such a connection are still forwarded.
import type net from 'node:net';

/** Only the API and the XSRF cookie route are never answered by a worker. */
const MAIN_PROCESS_PREFIXES = ['/api/', '/sanctum/'];
/** Methods that carry no body: nothing of the request can still be on its way when the socket moves. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);
/** A request head larger than this is served by the worker (and forwarded) rather than moved. */
const MAX_PEEK_BYTES = 16 * 1024;

/**
 * True when `head` (the first bytes of a connection) holds one whole body-less request for the main
 * process: its request line names GET or HEAD and an API path, and the headers end within it.
 */
export function belongsToMainProcess(head: Buffer): boolean {
  if (head.length > MAX_PEEK_BYTES) return false;
  const text = head.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const [method, target] = text.slice(0, text.indexOf('\r\n')).split(' ');
  if (!method || !target || !BODYLESS_METHODS.has(method)) return false;
  // A GET with a body is legal, if odd: it stays with the worker, which forwards it safely.
  const headers = text.slice(0, end + 2);
  if (/\r\ntransfer-encoding:/i.test(headers)) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(headers);
  if (length && Number(length[1]) !== 0) return false;
  return MAIN_PROCESS_PREFIXES.some((prefix) => target.startsWith(prefix));
}

/**
 * Reads the first chunk of a fresh connection and calls `route` with the socket paused and every byte
 * read so far. A connection that sends nothing within `idleMs` is closed (the HTTP server's own header
 * timeout only starts once it has the socket).
 */
export function peekFirstChunk(socket: net.Socket, idleMs: number, route: (head: Buffer) => void): void {
  socket.setTimeout(idleMs, () => socket.destroy());
  // Until a server owns the socket, a reset from the client must not become an uncaught error.
  const ignore = () => {};
  socket.on('error', ignore);
  socket.once('data', (first: Buffer) => {
    socket.pause();
    socket.setTimeout(0);
    socket.off('error', ignore);
    let head = first;
    for (let more = socket.read() as Buffer | null; more !== null; more = socket.read() as Buffer | null) head = Buffer.concat([head, more]);
    route(head);
  });
}

/**
 * Stops this process reading the socket's descriptor, at once. Needed before the socket is sent to another
 * process: the sender's copy of the descriptor stays open until the message is written, and while it
 * reads, a next request the client sends on the connection (after the main process answered the first)
 * would be read here and dropped; the main process would never see it (seen under load: the client got
 * "socket hang up" when the main process closed the idle connection). `pause()` only stops emitting
 * data; Node has no public call for this, so the handle's own readStop is used, as net.Socket does.
 */
export function stopReading(socket: net.Socket): void {
  const handle = (socket as unknown as { _handle?: { reading?: boolean; readStop?: () => number } | null })._handle;
  if (!handle?.readStop) return;
  handle.reading = false;
  handle.readStop();
}

/** Gives a socket (and the bytes already read from it) to an HTTP server as if it had accepted it. */
export function adoptConnection(server: net.Server, socket: net.Socket, head: Buffer): void {
  server.emit('connection', socket);
  socket.unshift(head);
  socket.resume();
}
