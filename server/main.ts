// Every serving process runs this module, through the entry server/index.ts (docs/decisions/0022-one-process-model.md). The
// primary validates the configuration, takes the data directory's lock, migrates and seeds the database,
// serves the current site build (building one first if none exists), the API and /media on one port, and
// forks WEB_WORKERS more processes that serve exactly the same on that port (process/worker.ts). Only the
// primary publishes, sends mailings and trial reminders, and sweeps unfinished uploads.
import cluster from 'node:cluster';
import fs from 'node:fs';
import { createApp } from './app.ts';
import type { AppContext, BackgroundJob } from './context.ts';
import { openDatabase, writeTransaction } from './db/client.ts';
import { seedDatabase } from './demo/seed.ts';
import { ConfigError, loadConfig, type Config } from './env.ts';
import { createLogger, loggerOptions, type Logger } from './log.ts';
import { createMailer, describeMailDelivery } from './mail/transport.ts';
import { backfillLicenseKeys } from './auth/license-keys.ts';
import { backfillLicenseRequests } from './features/licensing/index.ts';
import { REMINDER_DEFAULTS, startReminderScheduler } from './features/license-reminders/index.ts';
import { createKeyringSource, UPDATE_SIGNING } from './signing/signing-keys.ts';
import { startMailingWorker } from './features/mailings/index.ts';
import { startWebhookDelivery } from './features/webhooks/index.ts';
import { RELEASE_DIGESTS_INTERVAL_MS, startReleaseDigests } from './features/downloads/index.ts';
import { flushUpdateChecks } from './features/updates/index.ts';
import { countPendingRecipients } from './features/mailings/index.ts';
import { reportMailQueueDepth } from './ops/metrics.ts';
import { acquireInstanceLock, InstanceLockedError, type InstanceLock } from './process/instance-lock.ts';
import { runWorker } from './process/worker.ts';
import { findCurrentBuild } from './publish/publisher.ts';
import { codeVersion, readCodeVersion } from './publish/code-version.ts';
import { createPrimaryPublisher } from './publish/shared-publisher.ts';
import { startServing } from './serving.ts';
import { prepareDataDir } from './storage/data-dir.ts';
import { listTempFiles } from './storage/receive-upload.ts';
import { uploadTempDir } from './storage/release-files.ts';
import { createObjectStore, ensureStoreComplete, StoreNotReadyError } from './storage/object-store/index.ts';
import { deferredWake } from './process/deferred-wake.ts';

/** How often the mailing worker looks for due messages: retries, and a mailing whose wake was lost (AppContext.wake). */
const MAILING_INTERVAL_MS = 5_000;
/** Webhooks wait at most this long after their change (docs/integrations.md#delivery). */
const WEBHOOK_INTERVAL_MS = 2_000;
/** How often the primary looks for build requests whose IPC message it may have missed. */
const PUBLISH_REQUEST_CHECK_MS = 1_000;
/** Past SHUTDOWN_TIMEOUT_S (and the other processes' own margin) the primary exits whatever still runs. */
const SHUTDOWN_EXIT_MARGIN_MS = 5_000;

function exitOnStartError(error: unknown): never {
  // Both are the operator's to fix and say so themselves: no stack trace.
  if (error instanceof ConfigError || error instanceof InstanceLockedError || error instanceof StoreNotReadyError) console.error(error.message);
  else console.error('The server could not start:', error);
  process.exit(1);
}

function printGeneratedAdmin(admin: { email: string; password: string }): void {
  console.log(
    [
      '',
      '  A demo admin account was created (shown only this once):',
      `    e-mail:   ${admin.email}`,
      `    password: ${admin.password}`,
      '  Set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own on a fresh database.',
      '',
    ].join('\n'),
  );
}

/** Nothing uploads before this process serves, and the lock keeps other servers away: every `.part` file is a crash's leftover. */
async function removeUnfinishedUploads(config: Config, log: Logger): Promise<void> {
  const unfinished = await listTempFiles(uploadTempDir(config));
  for (const file of unfinished) {
    try {
      fs.rmSync(file, { force: true });
    } catch (error) {
      log.warn(`an unfinished upload could not be removed: ${file}`, error);
    }
  }
  if (unfinished.length > 0) log.info(`removed ${unfinished.length} unfinished upload${unfinished.length === 1 ? '' : 's'} left by the previous run`);
}

async function runPrimary(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, undefined, loggerOptions(config));
  // Before anything writes there: a fresh DATA_DIR gets private modes, not the umask's.
  prepareDataDir(config);
  const lock: InstanceLock = acquireInstanceLock(config.dataDir);
  const db = openDatabase(config.databaseFile);

  const keyed = backfillLicenseKeys(db);
  if (keyed > 0) log.info(`gave ${keyed} license${keyed === 1 ? '' : 's'} made before license keys a key`);
  const requests = writeTransaction(db, () => backfillLicenseRequests(db));
  if (requests > 0) log.info(`put ${requests} license request${requests === 1 ? '' : 's'} made before the admin inbox into it`);
  // A bucket that lacks files the site names would break pages and downloads: refuse it before seeding
  // (docs/decisions/0050-object-storage.md). Local storage passes at once.
  const storage = createObjectStore(config);
  await ensureStoreComplete(config, storage);
  const seed = await seedDatabase({ config, db, log, storage });
  if (seed.generatedAdmin) printGeneratedAdmin(seed.generatedAdmin);
  await removeUnfinishedUploads(config, log);

  const current = findCurrentBuild(config);
  // With nothing to serve, the first build has both cores to itself until it is live (decision 0063).
  const buildsFirstSite = config.buildOnStart && !current;
  const {
    publisher,
    takeUp,
    stop: stopPublishing,
    resumeSearchIndex,
  } = createPrimaryPublisher({
    config,
    db,
    log,
    // `serving` exists by then: publishes are scheduled only once the server listens (below).
    onLive: (buildDir) => serving.goLive(buildDir),
  });

  const mailer = createMailer({ config, log, db, now: () => Date.now() });
  const keyring = createKeyringSource(config);
  // Read (and on a fresh data directory made) here, before any worker is forked: two workers reading an
  // empty key directory at once would each make a first key, and a bad LICENSE_SIGNING_KEY stops the start.
  keyring();
  const updateKeyring = createKeyringSource(config, UPDATE_SIGNING);
  updateKeyring();
  // The jobs start once the server serves (below); work committed before then is found by their first run.
  // A wake runs the job on the next turn of the event loop, never inside its caller's request or transaction.
  const wakers: Partial<Record<BackgroundJob, () => void>> = {};
  const wake = deferredWake((job) => wakers[job]?.());
  const ctx: AppContext = { config, db, log, publisher, mailer, now: () => Date.now(), keyring, updateKeyring, storage, wake };
  const app = createApp(ctx);
  const serving = await startServing({
    config,
    app,
    db,
    log,
    storage,
    workerEnv: process.env,
    onPublishRequest: takeUp,
    onWake: wake,
    workersAfterFirstBuild: buildsFirstSite,
  });
  // Mailings queued by admins are sent from the database queue; rows left by a previous run resume here.
  const mailingWorker = startMailingWorker(ctx, { intervalMs: MAILING_INTERVAL_MS });
  wakers.mailing = mailingWorker.wake;
  reportMailQueueDepth(() => countPendingRecipients(db));
  // Trial expiry reminders (docs/licensing-reminders.md): their state is in the database, so the first run
  // after a stop catches up, sending each trial only the reminder that is relevant now.
  const reminderScheduler = startReminderScheduler(ctx, { intervalMs: REMINDER_DEFAULTS.intervalMs });
  // Webhook deliveries (docs/integrations.md#delivery): the outbox rows written with each change are sent from here,
  // woken by the change that wrote them (recordWebhookEvent); the timer finds retries that came due.
  const webhookDelivery = startWebhookDelivery(ctx, { intervalMs: WEBHOOK_INTERVAL_MS });
  wakers.webhooks = webhookDelivery.wake;
  // Release files without their SHA-512 or update signature (files stored before issue 25 first), one at a time.
  const releaseDigests = startReleaseDigests(ctx, { intervalMs: RELEASE_DIGESTS_INTERVAL_MS });
  const requestCheck = setInterval(() => takeUp(), PUBLISH_REQUEST_CHECK_MS);
  const more = `${config.webWorkers} more serving process${config.webWorkers === 1 ? '' : 'es'}`;
  const workers = config.webWorkers > 0 ? ` with ${more}${buildsFirstSite ? ' (started once the first build is live)' : ''}` : '';
  log.info(`Serving ${config.siteName} at ${config.siteUrl}${workers} (data in ${config.dataDir})`);
  log.info(describeMailDelivery(config));

  if (config.buildOnStart && (!current || seed.seeded)) {
    log.info('Building the site for the first time; pages appear when the build is live.');
    publisher.schedule(current ? 'content seeded' : 'no build yet');
    // The first build went live (the other processes started with it) or failed: they start now either way.
    if (buildsFirstSite) void publisher.whenIdle().then(() => serving.startWorkers());
  } else if (config.buildOnStart && current && readCodeVersion(current.dir) !== codeVersion(config.projectRoot)) {
    // Served already (loaded before listening); only its refresh waits for the build (issue 31, item 2).
    log.info('The live build was made by other code: serving it while a full build refreshes it in the background.');
    publisher.schedule('the live build was made by other code', { full: true });
  }
  // Requests recorded by processes of a previous run that stopped before taking them up.
  takeUp('requested before the last stop');
  // A live build whose search index the last run did not get to (a build scheduled above indexes after itself).
  if (config.buildOnStart) resumeSearchIndex();

  // The graceful stop (docs/decisions/0033-graceful-stop.md). Everything below shares one deadline; the
  // database closes last, once nothing can write any more.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const deadline = started + config.shutdownTimeoutMs;
    log.info(`${signal} received: stopping (in-flight work has ${config.shutdownTimeoutMs / 1000} s)`);
    clearInterval(requestCheck);
    // Last resort if something below hangs past every deadline: exit anyway (0: the stop was asked for).
    setTimeout(() => {
      log.error('the stop did not finish in time; exiting without closing the database');
      process.exit(0);
    }, config.shutdownTimeoutMs + SHUTDOWN_EXIT_MARGIN_MS).unref();
    // The mails in flight are finished and marked; the rest of their batch is handed back, due at the next start.
    const mailingStopped = mailingWorker.stop();
    // Likewise a reminder in flight is finished and marked sent; nothing else is claimed after this.
    const remindersStopped = reminderScheduler.stop();
    // A webhook in flight is finished and marked; a delivery cut short is sent again after the next start.
    const webhooksStopped = webhookDelivery.stop();
    // The file being hashed or signed is finished (its result stored); the rest waits for the next start.
    const digestsStopped = releaseDigests.stop();
    const publishStopped = stopPublishing(deadline);
    const untilDeadline = (work: Promise<unknown>) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
        void work.then(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    void (async () => {
      try {
        await serving.close(deadline);
        log.info('no longer serving: every connection is closed');
        await publishStopped;
        if (!(await untilDeadline(Promise.all([mailingStopped, remindersStopped, webhooksStopped, digestsStopped])))) {
          mailingWorker.abandon();
          log.warn('the mail in flight did not finish by the deadline');
        }
      } catch (error) {
        log.error('the stop failed half way; closing the database anyway', error);
      } finally {
        mailer.close();
        flushUpdateChecks(ctx);
        db.$client.close();
        lock.release();
        log.info(`stopped in ${Date.now() - started} ms; database closed`);
        process.exit(0);
      }
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

try {
  if (cluster.isPrimary) await runPrimary();
  else runWorker();
} catch (error) {
  exitOnStartError(error);
}
