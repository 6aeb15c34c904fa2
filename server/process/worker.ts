// A serving process beside the primary (docs/decisions/0022-one-process-model.md), forked by
// process/worker-pool.ts. It runs what the primary runs to answer requests: the in-memory static site and
// the whole Hono app over its own database connection, on the same port. What must be single stays in the
// primary: the publisher (a write here records its build request and tells the primary), the mailing
// worker, the upload sweep. Rate limits, sessions and bot-check tokens live in SQLite, shared by all.
import type http from 'node:http';
import { createApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { openDatabase } from '../db/client.ts';
import { loadConfig } from '../env.ts';
import { createLogger, loggerOptions, withPrefix } from '../log.ts';
import { createMailer } from '../mail/transport.ts';
import { createRemotePublisher } from '../publish/shared-publisher.ts';
import { mediaImageOrigins } from '../http/security-headers.ts';
import { createServingServer } from './serving-server.ts';
import { loadStaticSite, siteServedFromDisk, type StaticSite } from '../static/static-site.ts';
import { closeServer, listen } from './listen.ts';
import { createObjectStore } from '../storage/object-store/index.ts';
import { processMetrics } from '../ops/metrics.ts';
import type { PrimaryMessage, ProcessMessage, SiteLiveMessage, StartMessage } from './messages.ts';
import { createKeyringSource, UPDATE_SIGNING } from '../signing/signing-keys.ts';
import { flushUpdateChecks } from '../features/updates/index.ts';
import { deferredWake } from './deferred-wake.ts';

/** Past SHUTDOWN_TIMEOUT_S the busy connections are cut; this much later the process exits whatever still runs. */
const EXIT_MARGIN_MS = 2_000;
/** A scrape reaching this process waits this long for the primary to join everyone's metrics. */
const METRICS_TIMEOUT_MS = 5_000;

export function runWorker(): void {
  const config = loadConfig();
  let name = 'worker';
  const log = withPrefix(createLogger(config.logLevel, undefined, loggerOptions(config)), () => `${name}: `);
  const db = openDatabase(config.databaseFile);
  const tell = (message: ProcessMessage) => {
    if (process.connected) process.send?.(message);
  };
  const ctx: AppContext = {
    config,
    db,
    log,
    publisher: createRemotePublisher({ db, log, notifyPrimary: (reason) => tell({ type: 'publish', reason }) }),
    mailer: createMailer({ config, log, db, now: () => Date.now() }),
    now: () => Date.now(),
    keyring: createKeyringSource(config),
    updateKeyring: createKeyringSource(config, UPDATE_SIGNING),
    storage: createObjectStore(config),
    // Only the primary runs the background jobs: it is told, and looks at once; told as its own wake runs.
    wake: deferredWake((job) => tell({ type: 'wake', job })),
  };
  const app = createApp(ctx);

  let site: StaticSite | null = null;
  let start: StartMessage | null = null;
  let server: http.Server | null = null;
  let wanted: SiteLiveMessage | null = null;
  let loadedGeneration = -1;
  let loading = false;
  let stopping = false;
  const metricsWaiting = new Map<number, (text: string | null) => void>();
  let lastMetricsRequest = 0;

  /** A scrape reached this process: the primary joins every process's metrics (docs/decisions/0031-observability.md). */
  function joinedMetrics(): Promise<string> {
    const id = ++lastMetricsRequest;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => answer(null), METRICS_TIMEOUT_MS);
      const answer = (text: string | null) => {
        clearTimeout(timer);
        metricsWaiting.delete(id);
        if (text === null) reject(new Error('the primary did not join the metrics'));
        else resolve(text);
      };
      metricsWaiting.set(id, answer);
      tell({ type: 'metrics-wanted', id });
    });
  }

  /** Loads the newest build announced (announcements during a load are caught up after it), then listens. */
  async function loadWanted(): Promise<void> {
    if (loading) return;
    loading = true;
    try {
      while (wanted && wanted.generation > loadedGeneration) {
        const { dir, generation, reload = false } = wanted;
        // The primary wrote the compressed forms next to the files: nothing is compressed again here. The site
        // being replaced lends its pages' policies to the pages that did not change.
        if (dir !== null && (reload || dir !== site?.dir)) {
          // Behind nginx this process is never asked for a page: it reads nothing of the build (issue 31, item 3).
          site = config.nginxServesPages
            ? siteServedFromDisk(dir)
            : await loadStaticSite(dir, { previous: site, compress: false, imageOrigins: mediaImageOrigins(config) });
        }
        loadedGeneration = generation;
        tell({ type: 'site-loaded', generation });
      }
    } catch (error) {
      // The primary starts a new process, which loads the live build afresh.
      log.error('could not load the live build', error);
      process.exit(1);
    } finally {
      loading = false;
    }
    // Only now: a reader reaching this process gets the live build from the first answer on.
    if (!server && start && !stopping) await listenOnPort(start);
  }

  async function listenOnPort({ index, port }: StartMessage): Promise<void> {
    const getSite = () => site;
    server = createServingServer({ config, db, storage: ctx.storage, log, app, getSite, processName: `worker-${index}`, metrics: joinedMetrics });
    try {
      // exclusive: this process binds its own socket (with SO_REUSEPORT) instead of asking the cluster
      // primary to share one, so the kernel balances connections and this server really listens.
      await listen(server, { port, host: config.host, reusePort: true, exclusive: true });
    } catch (error) {
      log.error(`cannot listen on port ${port}`, error);
      process.exit(1);
    }
    tell({ type: 'listening' });
  }

  /**
   * SIGTERM from the primary (docs/decisions/0033-graceful-stop.md): stop accepting, let in-flight answers
   * (uploads included) finish until SHUTDOWN_TIMEOUT_S, cut what is still busy then, close the database, exit 0.
   */
  async function stop(reason: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + config.shutdownTimeoutMs;
    log.info(`${reason}: no new connections; in-flight requests have ${config.shutdownTimeoutMs / 1000} s`);
    setTimeout(() => {
      log.warn('still not stopped after the deadline; exiting');
      process.exit(0);
    }, config.shutdownTimeoutMs + EXIT_MARGIN_MS).unref();
    if (server) {
      await closeServer(server, { deadline, onCut: (count) => log.warn(`cut ${count} connection${count === 1 ? '' : 's'} still busy at the deadline`) });
    }
    // A handler whose connection was just cut may still be unwinding (an upload removing its temp file).
    await new Promise((resolve) => setImmediate(resolve));
    ctx.mailer.close();
    // The update checks this process counted since its last flush (docs/updates.md#numbers).
    flushUpdateChecks(ctx);
    db.$client.close();
    log.info('stopped');
    process.exit(0);
  }

  process.on('message', (message: PrimaryMessage) => {
    if (message.type === 'start') {
      start = message;
      name = `worker ${message.index}`;
    } else if (message.type === 'site-live') {
      wanted = message;
      void loadWanted();
    } else if (message.type === 'metrics-request') {
      // A failure leaves this process out of the scrape (the primary stops waiting after a while).
      processMetrics().then(
        (metrics) => tell({ type: 'metrics', id: message.id, metrics }),
        (error: unknown) => log.error('metrics could not be collected', error),
      );
    } else if (message.type === 'metrics-text') {
      metricsWaiting.get(message.id)?.(message.text);
    }
  });
  // The primary died or closed the channel: alone, this process would serve a stale site.
  process.on('disconnect', () => void stop('the primary is gone'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  tell({ type: 'ready' });
}
