// `npm start`: validate the configuration, migrate and seed the database, serve the current site build
// (building one first if none exists), the API and /media on one port, with static web workers beside
// this process on that port when WEB_WORKERS allows (serving.ts, docs/decisions/0014-web-workers.md).
import fs from 'node:fs';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { seedDatabase } from './db/seed.ts';
import { ConfigError, loadConfig, type Config } from './env.ts';
import { createLogger } from './log.ts';
import { createMailer } from './mail/transport.ts';
import { startMailingWorker } from './features/mailings/worker.ts';
import { createPublisher, findCurrentBuild } from './publish/publisher.ts';
import { startServing } from './serving.ts';
import { listTempFiles } from './storage/receive-upload.ts';
import { uploadTempDir } from './storage/release-files.ts';

/** How often the mailing worker looks for due messages (issue 7: a queued mailing starts within seconds). */
const MAILING_INTERVAL_MS = 5_000;
/** Workers get 4 s to stop, then this process closes; keep-alive or upload connections cannot hold it longer. */
const SHUTDOWN_LIMIT_MS = 8_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config.logLevel);
  const db = openDatabase(config.databaseFile);

  const seed = await seedDatabase({ config, db, log });
  if (seed.generatedAdmin) {
    const { email, password } = seed.generatedAdmin;
    console.log(
      [
        '',
        '  A demo admin account was created (shown only this once):',
        `    e-mail:   ${email}`,
        `    password: ${password}`,
        '  Set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own on a fresh database.',
        '',
      ].join('\n'),
    );
  }

  // Nothing uploads through this process before it listens, so the `.part` files there now are what a
  // crash left of the uploads it cut short. Here and not in createApp, which tests call many times at once
  // over shared directories.
  const unfinishedUploads = await listTempFiles(uploadTempDir(config));

  const current = findCurrentBuild(config);
  const publisher = createPublisher({
    config,
    db,
    log,
    // `serving` exists by then: publishes are scheduled only once the server listens (below).
    onLive: (buildDir) => serving.goLive(buildDir),
  });

  const mailer = createMailer({ config, log });
  const ctx: AppContext = { config, db, log, publisher, mailer, now: () => Date.now() };
  const app = createApp(ctx);
  // Mailings queued by admins are sent from the database queue; rows left by a previous run resume here.
  const mailingWorker = startMailingWorker(ctx, { intervalMs: MAILING_INTERVAL_MS });
  const serving = await startServing({ config, app, log });
  // Removed only once the port is ours: a second server started by mistake on the same data stops at
  // EADDRINUSE before it could delete the files of uploads the running one is receiving. Uploads this
  // process receives get new random names, never in the list.
  for (const file of unfinishedUploads) {
    try {
      fs.rmSync(file, { force: true });
    } catch (error) {
      log.warn(`an unfinished upload could not be removed: ${file}`, error);
    }
  }
  if (unfinishedUploads.length > 0) log.info(`removed ${unfinishedUploads.length} unfinished upload${unfinishedUploads.length === 1 ? '' : 's'} left by the previous run`);
  const workers = config.webWorkers > 0 ? ` with ${config.webWorkers} static web worker${config.webWorkers === 1 ? '' : 's'}` : '';
  log.info(`Serving ${config.siteName} at ${config.siteUrl}${workers} (data in ${config.dataDir})`);

  if (config.buildOnStart && (!current || seed.seeded)) {
    log.info('Building the site for the first time; pages appear when the build is live.');
    publisher.schedule(current ? 'content seeded' : 'no build yet');
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    // Keep-alive sockets and uploads could hold the close open; do not wait for them forever.
    setTimeout(() => process.exit(0), SHUTDOWN_LIMIT_MS).unref();
    // The mailing in flight finishes and is marked sent; the rest of its batch is handed back for the next
    // start. If the hard exit above cuts a send short, its row's lease makes it due again later.
    const mailingStopped = mailingWorker.stop();
    // Web workers stop first: what they still forward needs this process.
    void serving
      .close()
      .then(() => mailingStopped)
      .finally(() => {
        mailer.close();
        db.$client.close();
        process.exit(0);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('The server could not start:', error);
  process.exit(1);
});
