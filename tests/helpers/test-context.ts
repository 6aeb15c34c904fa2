// Builds a real app on a fresh SQLite file in a temp DATA_DIR, as docs/engineering.md#technology-choices asks: no mocks of our own
// database. The publisher is a recorder unless a test passes its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../server/app.ts';
import type { AppContext, BackgroundJob } from '../../server/context.ts';
import { openDatabase } from '../../server/db/client.ts';
import { loadConfig, type RawEnv } from '../../server/env.ts';
import { createLogger } from '../../server/log.ts';
import { createMailer } from '../../server/mail/transport.ts';
import type { Publisher, PublishStatus } from '../../server/publish/types.ts';
import { createKeyringSource, LICENSE_SIGNING, UPDATE_SIGNING } from '../../server/signing/signing-keys.ts';
import { createObjectStore } from '../../server/storage/object-store/index.ts';

export interface RecordingPublisher extends Publisher {
  reasons: string[];
  /** The reasons of the requests that asked for a full build. */
  fullReasons: string[];
}

export function createRecordingPublisher(): RecordingPublisher {
  const reasons: string[] = [];
  const fullReasons: string[] = [];
  const status: PublishStatus = { state: 'idle', pending: false, currentBuildId: null, lastSuccess: null, lastFailure: null };
  return {
    reasons,
    fullReasons,
    schedule: (reason, options) => {
      reasons.push(reason);
      if (options?.full) fullReasons.push(reason);
    },
    status: () => status,
    whenIdle: async () => {},
  };
}

export interface TestContext extends AppContext {
  app: App;
  dataDir: string;
  /** The environment the configuration was read from (what another serving process of this test must read). */
  env: Record<string, string>;
  /** Every line the context's logger produced, at every level (LOG_LEVEL only decides what is printed). */
  logLines: string[];
  /** The background jobs woken through `wake`, in order (no job runs here: tests drive the jobs themselves). */
  woken: BackgroundJob[];
  /** Moves the fake clock forward (only when the test asked for one). */
  advance(ms: number): void;
  cleanup(): void;
}

export function makeTempDir(prefix = 'site-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function createTestContext(options: { env?: Partial<Record<keyof RawEnv, string>>; publisher?: Publisher; fakeClock?: boolean } = {}): TestContext {
  const dataDir = makeTempDir();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    CONTENT_DIR: path.join(dataDir, 'content'),
    LOG_LEVEL: 'silent',
    SITE_URL: 'http://localhost:4321',
    // Proof of work stays real but cheap: each solve takes milliseconds.
    BOTCHECK_COST: '1',
    ...options.env,
  };
  const config = loadConfig(env);
  const db = openDatabase(config.databaseFile);
  let clock = Date.UTC(2026, 0, 1);
  const now = options.fakeClock ? () => clock : () => Date.now();
  const logLines: string[] = [];
  const woken: BackgroundJob[] = [];
  const log = createLogger(config.logLevel, (line) => logLines.push(line));
  const ctx: AppContext = {
    config,
    db,
    log,
    mailer: createMailer({ config, log, db, now }),
    publisher: options.publisher ?? createRecordingPublisher(),
    now,
    // Tests rotate keys in this process and expect the next call to see it; the running server's one-second
    // recheck has its own test (tests/server/features/licensing/license-file.test.ts).
    keyring: createKeyringSource(config, LICENSE_SIGNING, { recheckMs: 0 }),
    updateKeyring: createKeyringSource(config, UPDATE_SIGNING, { recheckMs: 0 }),
    storage: createObjectStore(config),
    wake: (job) => void woken.push(job),
  };
  const app = createApp(ctx);
  return {
    ...ctx,
    app,
    dataDir,
    env,
    logLines,
    woken,
    advance: (ms) => {
      clock += ms;
    },
    cleanup: () => {
      ctx.mailer.close();
      db.$client.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
