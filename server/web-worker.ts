// A static web worker (docs/decisions/0014-web-workers.md), started by the main process (web-workers.ts),
// never by hand. It listens on the public port next to the main process (SO_REUSEPORT: the kernel spreads
// connections over the processes), answers static hits from its own copy of the live build exactly as the
// main process does (server.ts), and forwards every other request to the main process's unix socket.
// It keeps no state of its own: the API, sessions, rate limits and the publisher live in the main process.
import net from 'node:net';
import { adoptConnection, belongsToMainProcess, peekFirstChunk, stopReading } from './http/connection-handoff.ts';
import { createForwarder } from './http/forward.ts';
import { createLogger, type Logger } from './log.ts';
import { createHttpServer } from './server.ts';
import { loadStaticSite, type StaticSite } from './static/static-site.ts';
import type { ConnectionMessage, SiteLiveMessage, WebWorkerStart, WorkerMessage } from './web-workers.ts';

/** In-flight answers get this long to finish when the worker is told to stop. */
const STOP_GRACE_MS = 3_000;
/** A new connection must send its first bytes within this (the HTTP server's header timeout, server.ts). */
const FIRST_BYTES_MS = 60_000;

if (!process.send) {
  console.error('server/web-worker.ts is started by the server (WEB_WORKERS), not by hand.');
  process.exit(1);
}

const start = JSON.parse(process.argv[2] ?? '{}') as WebWorkerStart;
const name = `worker-${start.index}`;
const log = withPrefix(createLogger(start.logLevel), `web worker ${start.index}: `);
const tell = (message: WorkerMessage) => process.send?.(message);

let site: StaticSite | null = null;
let wanted: SiteLiveMessage | null = null;
let loadedGeneration = -1;
let loading = false;
let listening = false;
let stopping = false;

const forwarder = createForwarder({ socketPath: start.socketPath, log, servedBy: start.servedByHeader ? name : undefined });
const server = createHttpServer({
  forward: forwarder.listener,
  getSite: () => site,
  mediaDir: start.mediaDir,
  log,
  servedBy: start.servedByHeader ? name : undefined,
});

// The port is taken by a plain TCP listener: each new connection's first request decides whether this
// worker serves it or the main process gets the whole connection (http/connection-handoff.ts).
const served = new Set<net.Socket>();
const gate = net.createServer((socket) => {
  peekFirstChunk(socket, FIRST_BYTES_MS, (head) => {
    if (!stopping && belongsToMainProcess(head) && handOff(socket, head)) return;
    served.add(socket);
    socket.once('close', () => served.delete(socket));
    adoptConnection(server, socket, head);
  });
});

/** Sends the socket to the main process; false when the channel is gone (the worker then serves it). */
function handOff(socket: net.Socket, head: Buffer): boolean {
  if (!process.send || !process.connected) return false;
  // Nothing more may be read here: what the client sends next belongs to the main process.
  stopReading(socket);
  const message: ConnectionMessage = { type: 'connection', head: head.toString('latin1') };
  // The conversion of the socket happens within this call, so no byte can be read here after `head`.
  // (send's false return only means its queue is long; the message still goes.)
  process.send(message, socket, { keepOpen: false }, (error) => {
    if (error) log.warn(`could not hand a connection to the main process: ${error.message}`);
  });
  return true;
}

process.on('message', (message: SiteLiveMessage) => {
  if (message.type !== 'site-live') return;
  wanted = message;
  void loadWanted();
});
// The main process died or closed the channel: a worker alone would serve a stale site and answer 502.
process.on('disconnect', () => stop());
process.on('SIGTERM', () => stop());
process.on('SIGINT', () => stop());
tell({ type: 'ready' });

/** Loads the newest build announced (announcements during a load are caught up after it), then listens. */
async function loadWanted(): Promise<void> {
  if (loading) return;
  loading = true;
  try {
    while (wanted && wanted.generation > loadedGeneration) {
      const { dir, generation } = wanted;
      // The main process wrote the compressed forms next to the files: nothing is compressed again here.
      if (dir !== null && dir !== site?.dir) site = await loadStaticSite(dir, { compress: false });
      loadedGeneration = generation;
      tell({ type: 'site-loaded', generation });
    }
  } catch (error) {
    // The main process starts a new worker, which loads the live build afresh.
    log.error('could not load the live build', error);
    process.exit(1);
  } finally {
    loading = false;
  }
  // Only now: a reader reaching this worker gets the live build from the first request on.
  if (!listening && !stopping) listen();
}

function listen(): void {
  listening = true;
  gate.on('error', (error) => {
    log.error(`cannot listen on port ${start.port}`, error);
    process.exit(1);
  });
  gate.listen({ port: start.port, host: start.host, reusePort: true }, () => tell({ type: 'listening' }));
}

function stop(): void {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  if (!listening) process.exit(0);
  // Stops accepting at once (the kernel sends new connections to the other listeners) and ends idle ones;
  // the HTTP server never listened itself, so its connections are ended here, then the process exits.
  gate.close();
  server.closeIdleConnections();
  const drained = setInterval(() => {
    server.closeIdleConnections();
    if (served.size > 0) return;
    clearInterval(drained);
    forwarder.close();
    process.exit(0);
  }, 50);
}

function withPrefix(inner: Logger, prefix: string): Logger {
  return {
    error: (message, detail) => inner.error(prefix + message, detail),
    warn: (message, detail) => inner.warn(prefix + message, detail),
    info: (message, detail) => inner.info(prefix + message, detail),
    debug: (message, detail) => inner.debug(prefix + message, detail),
  };
}
