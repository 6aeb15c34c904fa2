// How the primary serves (docs/decisions/0022-one-process-model.md): the live build in memory plus the
// whole Hono app on the public port, and with WEB_WORKERS > 0 that many more processes doing exactly the
// same on the same port (SO_REUSEPORT: the kernel spreads connections over them). Only the primary
// builds, sends mailings and sweeps uploads; a build it publishes is live in every process before the
// publish reports it live.
import type net from 'node:net';
import type { BackgroundJob } from './context.ts';
import type { Db } from './db/client.ts';
import type { Config } from './env.ts';
import type { Logger } from './log.ts';
import { closeServer, ensurePortFree, listen } from './process/listen.ts';
import { startWorkerPool, type WorkerPool } from './process/worker-pool.ts';
import { findCurrentBuild } from './publish/build-dirs.ts';
import { mediaImageOrigins } from './http/security-headers.ts';
import { createServingServer } from './process/serving-server.ts';
import type { HttpServerOptions } from './server.ts';
import type { ObjectStore } from './storage/object-store/index.ts';
import { aggregateMetrics } from './ops/metrics-aggregate.ts';
import { loadStaticSite, type LoadOptions, type StaticSite } from './static/static-site.ts';

export interface Serving {
  /** The public port (PORT, or the one the system chose when PORT is 0). */
  port: number;
  /**
   * Loads a finished build and has every process serve it; resolves when they do. The publisher's
   * onLive: a build that cannot be loaded here fails the publish and the old site stays.
   */
  goLive(buildDir: string): Promise<void>;
  /**
   * Stops accepting in every process: in-flight answers (uploads included) finish, idle connections are
   * closed, and whatever is still busy at `deadline` (a Date.now() value) is cut. Resolves when every other
   * process has exited and this one's listener is closed (docs/decisions/0033-graceful-stop.md).
   */
  close(deadline?: number): Promise<void>;
  /** Process ids of the other serving processes (empty with WEB_WORKERS=0, or while they are held back). */
  workerPids(): number[];
  /**
   * Starts the other serving processes held back by `workersAfterFirstBuild` (the first build failed, so
   * none will go live soon); does nothing once they run, or while the server stops.
   */
  startWorkers(): void;
}

export interface ServingOptions {
  config: Config;
  app: HttpServerOptions['app'];
  /** The primary's connection, for the readiness check. */
  db: Db;
  /** Where stored files live: /media/ and the readiness check follow it (docs/decisions/0050-object-storage.md). */
  storage?: ObjectStore;
  log: Logger;
  /** The environment the other processes read their configuration from (the primary's own; tests pass theirs). */
  workerEnv?: Record<string, string | undefined>;
  /** A write in another process needs a build (server/publish/shared-publisher.ts). */
  onPublishRequest?: (reason: string) => void;
  /** Another process queued work for one of the primary's background jobs (AppContext.wake). */
  onWake?: (job: BackgroundJob) => void;
  /**
   * Nothing is live and the primary is building the first site: the other serving processes start only once
   * that build is live (or `startWorkers()` is called), so their boot and their read of the build do not
   * share the cores with the build (docs/decisions/0063-workers-after-the-first-build.md).
   */
  workersAfterFirstBuild?: boolean;
}

export async function startServing(options: ServingOptions): Promise<Serving> {
  const { config, log } = options;
  let site: StaticSite | null = null;
  // The primary writes each build's compressed forms beside its files; the other processes only read them.
  // Behind nginx (NGINX_SERVES_PAGES) the forms are still made and written, for nginx, but no body is kept.
  const load = (dir: string, { compress = true } = {}) =>
    loadStaticSite(dir, {
      compress,
      previous: site,
      writeCompressed: true,
      onWriteError: reportWriteErrors(log, dir),
      keepBodies: !config.nginxServesPages,
      imageOrigins: mediaImageOrigins(config),
    });
  const current = findCurrentBuild(config);
  if (current) site = await load(current.dir);

  const getSite = () => site;
  let pool: WorkerPool | null = null;
  // The primary joins its own metrics with every other process's (docs/decisions/0031-observability.md).
  const joinedMetrics = async () => aggregateMetrics(pool ? await pool.collectMetrics() : []);
  const server = createServingServer({
    config,
    db: options.db,
    storage: options.storage,
    log,
    app: options.app,
    getSite,
    processName: 'main',
    metrics: joinedMetrics,
  });
  const withWorkers = config.webWorkers > 0;
  if (withWorkers && config.port !== 0) await ensurePortFree(config.port, config.host);
  await listen(server, { port: config.port, host: config.host, reusePort: withWorkers });
  const port = (server.address() as net.AddressInfo).port;

  let closing = false;
  /** Forks the other serving processes unless they run already (or none are wanted); says whether it did. */
  const startWorkers = (liveDir: string | null): boolean => {
    if (pool || closing || !withWorkers) return false;
    pool = startWorkerPool({
      count: config.webWorkers,
      port,
      env: options.workerEnv ?? process.env,
      liveDir,
      log,
      onPublishRequest: options.onPublishRequest ?? (() => {}),
      onWake: options.onWake ?? (() => {}),
      aggregateMetrics: joinedMetrics,
    });
    return true;
  };
  // Held back only while there is nothing to serve: a process that starts later reads the live build before
  // it listens, as a restarted one does, so no reader sees two builds.
  if (!(options.workersAfterFirstBuild && site === null)) startWorkers(site?.dir ?? null);

  // Builds go live one at a time, and the first build's compressed forms (below) take their turn among them.
  let switching: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = switching.then(work);
    switching = turn.catch(() => undefined);
    return turn;
  };

  /** Reads `dir` (the live build) again with its compressed forms made and written, and has every process serve them. */
  const compressLiveBuild = async (dir: string): Promise<void> => {
    const started = performance.now();
    try {
      const compressed = await load(dir);
      if (closing || site?.dir !== compressed.dir) return;
      await pool?.announce(compressed.dir, { reload: true });
      site = compressed;
      log.info(`the first build's compressed forms are made and served (${Math.round(performance.now() - started)} ms after it went live)`);
    } catch (error) {
      log.warn(`could not make the compressed forms of ${dir}; its files are sent uncompressed until the next publish`, error);
    }
  };

  return {
    port,
    goLive: (buildDir) =>
      inTurn(async () => {
        const started = performance.now();
        // The first build of a server with nothing to serve goes live as soon as its files are read; its
        // gzip and brotli forms follow (about 4.6 s at 5,000 posts, most of what a cold start spent after
        // the build: docs/decisions/0053-first-build-before-its-compressed-forms.md). A later build reuses the
        // previous build's forms by content and goes live with all of them; one that comes while the first is
        // being compressed waits for it.
        const first = site === null;
        const next = await load(buildDir, { compress: !first });
        const loaded = performance.now();
        // Held back until now (workersAfterFirstBuild): they start with this build as the live one.
        const forked = startWorkers(next.dir);
        // The others first: when this resolves (and the publisher reports the build live) every process serves it.
        await pool?.announce(next.dir);
        site = next;
        const others = forked ? 'the other processes start with it' : `by the other processes in ${Math.round(performance.now() - loaded)} ms more`;
        log.debug(`live build loaded in ${Math.round(loaded - started)} ms, ${others}`);
        if (first) void inTurn(() => compressLiveBuild(next.dir));
      }),
    async close(deadline = Date.now() + config.shutdownTimeoutMs) {
      closing = true;
      const onCut = (count: number) => log.warn(`cut ${count} connection${count === 1 ? '' : 's'} still busy at the shutdown deadline`);
      await Promise.all([pool?.stop(deadline), closeServer(server, { deadline, onCut })]);
    },
    workerPids: () => pool?.pids() ?? [],
    startWorkers: () => void startWorkers(site?.dir ?? null),
  };
}

function reportWriteErrors(log: Logger, dir: string): NonNullable<LoadOptions['onWriteError']> {
  let reported = false;
  return (file, error) => {
    if (reported) return;
    reported = true;
    log.warn(`could not store compressed forms in ${dir} (first: ${file}); the other processes send those files uncompressed`, error);
  };
}
