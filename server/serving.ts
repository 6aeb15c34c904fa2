// How the main process serves (docs/decisions/0014-web-workers.md): the live build in memory plus the
// Hono app on the public port, and, with WEB_WORKERS > 0, static web workers on the same port
// (SO_REUSEPORT) that forward everything else to this process over a unix socket in $DATA_DIR/run.
// Everything with state (API, sessions, rate limits, publisher, mailing worker) stays in this process.
import fs from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Config } from './env.ts';
import { adoptConnection } from './http/connection-handoff.ts';
import type { Logger } from './log.ts';
import { findCurrentBuild } from './publish/build-dirs.ts';
import { createRequestListener, createServerFor, createWorkerFacingServer, type HttpServerOptions } from './server.ts';
import { loadStaticSite, type LoadOptions, type StaticSite } from './static/static-site.ts';
import { startWebWorkers, type WebWorkerPool } from './web-workers.ts';

export interface Serving {
  /** The public port (PORT, or the one the system chose when PORT is 0). */
  port: number;
  /**
   * Loads a finished build and has every process serve it; resolves when they do. The publisher's
   * onLive: a build that cannot be loaded here fails the publish and the old site stays.
   */
  goLive(buildDir: string): Promise<void>;
  /** Stops the workers, then the listeners (in-flight answers finish; idle connections are closed). */
  close(): Promise<void>;
  /** Process ids of the running web workers (empty with WEB_WORKERS=0). */
  workerPids(): number[];
}

export interface ServingOptions {
  config: Config;
  app: Extract<HttpServerOptions, { app: unknown }>['app'];
  log: Logger;
}

/** sun_path holds 108 bytes on Linux; a deeper DATA_DIR gets its socket in a private temp directory. */
const MAX_SOCKET_PATH = 100;

export async function startServing(options: ServingOptions): Promise<Serving> {
  const { config, log } = options;
  let site: StaticSite | null = null;
  const load = (dir: string) => loadStaticSite(dir, { previous: site, writeCompressed: true, onWriteError: reportWriteErrors(log, dir) });
  const current = findCurrentBuild(config);
  if (current) site = await load(current.dir);

  const listener = createRequestListener({
    app: options.app,
    getSite: () => site,
    mediaDir: config.uploadsDir,
    log,
    servedBy: config.servedByHeader ? 'main' : undefined,
  });
  const server = createServerFor(listener);
  const withWorkers = config.webWorkers > 0;
  // With SO_REUSEPORT a second server on this port would not fail to start but silently share it.
  if (withWorkers && config.port !== 0) await ensurePortFree(config.port, config.host);
  await listen(server, { port: config.port, host: config.host, reusePort: withWorkers });
  const port = (server.address() as net.AddressInfo).port;

  let internal: http.Server | null = null;
  let pool: WebWorkerPool | null = null;
  let socket: { path: string; cleanup: () => void } | null = null;
  if (withWorkers) {
    socket = prepareSocketPath(config.dataDir);
    internal = createWorkerFacingServer(listener);
    await listen(internal, { path: socket.path });
    pool = startWebWorkers({
      count: config.webWorkers,
      start: { port, host: config.host, socketPath: socket.path, mediaDir: config.uploadsDir, logLevel: config.logLevel, servedByHeader: config.servedByHeader },
      liveDir: site?.dir ?? null,
      log,
      onConnection: (connection, head) => adoptConnection(server, connection, head),
    });
  }

  return {
    port,
    async goLive(buildDir) {
      const started = performance.now();
      const next = await load(buildDir);
      const loaded = performance.now();
      // Workers first: when this resolves (and the publisher reports the build live) every process serves it.
      await pool?.announce(next.dir);
      site = next;
      log.debug(`live build loaded in ${Math.round(loaded - started)} ms, by the web workers in ${Math.round(performance.now() - loaded)} ms more`);
    },
    async close() {
      await pool?.stop();
      await Promise.all([closeServer(server), internal ? closeServer(internal) : undefined]);
      socket?.cleanup();
    },
    workerPids: () => pool?.pids() ?? [],
  };
}

function listen(server: net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function ensurePortFree(port: number, host: string): Promise<void> {
  const probe = net.createServer();
  try {
    await listen(probe, { port, host });
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** `$DATA_DIR/run/app.sock` in a directory only this user can enter: no other local user can forge a client address. */
function prepareSocketPath(dataDir: string): { path: string; cleanup: () => void } {
  let dir = path.join(dataDir, 'run');
  let temporary = false;
  if (path.join(dir, 'app.sock').length > MAX_SOCKET_PATH) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-run-'));
    temporary = true;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const socketPath = path.join(dir, 'app.sock');
  // Left by a process that was killed: listening would fail with EADDRINUSE.
  fs.rmSync(socketPath, { force: true });
  return {
    path: socketPath,
    cleanup: () => {
      if (temporary) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function reportWriteErrors(log: Logger, dir: string): NonNullable<LoadOptions['onWriteError']> {
  let reported = false;
  return (file, error) => {
    if (reported) return;
    reported = true;
    log.warn(`could not store compressed forms in ${dir} (first: ${file}); web workers send those files uncompressed`, error);
  };
}
