// `npm run storage -- migrate --to s3|local` (docs/decisions/0050-object-storage.md): every file of both
// areas copied and verified by hash, a run cut short resumed by running it again (what is there is
// skipped, what is damaged copied again), and the bucket marked complete only when all are there, which a
// server with STORAGE=s3 needs before it starts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../server/env.ts';
import {
  createLocalObjectStore,
  createS3ObjectStore,
  ensureStoreComplete,
  StoreNotReadyError,
  type ObjectStore,
  type S3ObjectStore,
} from '../../../server/storage/object-store/index.ts';
import { migrateStore } from '../../../server/storage/object-store/migrate.ts';
import { parseArgs, runMigration } from '../../../scripts/storage.ts';
import { makeTempDir } from '../../helpers/test-context.ts';
import { startTestBucket, type TestBucket } from '../../helpers/s3-server.ts';

let bucket: TestBucket;
let dataDir: string;
let config: Config;
let env: Record<string, string>;
beforeEach(async () => {
  bucket = await startTestBucket();
  dataDir = makeTempDir('migrate-');
  env = { DATA_DIR: dataDir, ...bucket.env };
  config = loadConfig(env);
});
afterEach(async () => {
  await bucket.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A site's files as the local store had them before: images, attached files, release files (any layout below private/). */
function writeLocalFiles(): Record<string, Buffer> {
  const files: Record<string, Buffer> = {
    'uploads/news/0123456789abcdef-thumb.webp': crypto.randomBytes(2_000),
    'uploads/home/fedcba9876543210-lg.webp': crypto.randomBytes(3_000),
    'private/news/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': crypto.randomBytes(10_000),
    'private/downloads/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb': crypto.randomBytes(20_000),
    'private/downloads/7/setup-x64.msi': crypto.randomBytes(5_000),
  };
  for (const [file, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dataDir, file)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, file), bytes);
  }
  // Uploads in progress are never copied.
  fs.mkdirSync(path.join(dataDir, 'private', '.tmp'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'private', '.tmp', 'x.part'), 'half');
  return files;
}

const keyOf = (file: string) => file.replace(/^uploads\//, 'media/');

async function readAll(store: ObjectStore, key: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await store.read(key)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The bucket store, but the connection breaks at the `breakAt`-th put (an interrupted run). */
function breakingAfter(store: S3ObjectStore, breakAt: number): S3ObjectStore {
  let puts = 0;
  return {
    ...store,
    putStream: async (key, source, options) => {
      if (++puts >= breakAt) throw new Error('connection reset by peer');
      return store.putStream(key, source, options);
    },
  };
}

describe('npm run storage -- migrate', () => {
  it('reads only `migrate --to s3|local`', () => {
    expect(parseArgs(['migrate', '--to', 's3'])).toEqual({ to: 's3' });
    expect(parseArgs(['migrate', '--to', 'local'])).toEqual({ to: 'local' });
    for (const argv of [[], ['migrate'], ['migrate', '--to', 'gcs'], ['copy', '--to', 's3'], ['migrate', '--to', 's3', 'extra']])
      expect(parseArgs(argv)).toBeNull();
  });

  it('refuses to start on a bucket that lacks the local files, until a complete migration; resumes after an interruption', async () => {
    const files = writeLocalFiles();
    const local = createLocalObjectStore(config);
    const s3 = createS3ObjectStore(config.storage as Extract<Config['storage'], { kind: 's3' }>);
    await expect(ensureStoreComplete(config, s3)).rejects.toBeInstanceOf(StoreNotReadyError);

    // Cut off at the third file: two are in the bucket, nothing is marked complete.
    const cut = await migrateStore({ from: local, to: breakingAfter(s3, 3) });
    expect(cut.complete).toBe(false);
    expect(cut.copied).toBe(2);
    expect(cut.failed.length).toBe(3);
    expect(await s3.readMarker()).toBeNull();
    await expect(ensureStoreComplete(config, s3)).rejects.toBeInstanceOf(StoreNotReadyError);

    // One of the copies got damaged meanwhile (same size, other bytes): the next run copies it again.
    const damaged = keyOf(Object.keys(files)[0] as string);
    if (await s3.head(damaged)) await s3.putStream(damaged, crypto.randomBytes(2_000));

    const lines: string[] = [];
    const resumed = await runMigration('s3', (line) => lines.push(line), env);
    expect(resumed).toMatchObject({ total: 5, failed: [], complete: true });
    expect(resumed.skipped).toBeGreaterThanOrEqual(1);
    expect(resumed.copied + resumed.skipped).toBe(5);
    expect(lines.join('\n')).toContain('verified by its SHA-256');
    expect(lines.join('\n')).toContain('set STORAGE=s3');
    for (const [file, bytes] of Object.entries(files)) expect((await readAll(s3, keyOf(file))).equals(bytes), file).toBe(true);
    expect(await s3.readMarker()).toMatchObject({ complete: true, files: 5, from: 'local' });
    await ensureStoreComplete(config, s3);

    // Run again: everything is there already.
    expect(await runMigration('s3', () => {}, env)).toMatchObject({ total: 5, copied: 0, skipped: 5, complete: true });
  });

  it('moves every file back to a fresh DATA_DIR, and unmarks the bucket (it is no longer the complete store)', async () => {
    const files = writeLocalFiles();
    await runMigration('s3', () => {}, env);
    const fresh = makeTempDir('migrate-back-');
    try {
      const report = await runMigration('local', () => {}, { ...env, DATA_DIR: fresh });
      expect(report).toMatchObject({ total: 5, copied: 5, complete: true });
      for (const [file, bytes] of Object.entries(files)) expect(fs.readFileSync(path.join(fresh, file)).equals(bytes), file).toBe(true);
      const s3 = createS3ObjectStore(config.storage as Extract<Config['storage'], { kind: 's3' }>);
      expect(await s3.readMarker()).toBeNull();
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('marks an empty bucket complete when the site has no file yet (nothing to migrate)', async () => {
    const s3 = createS3ObjectStore(config.storage as Extract<Config['storage'], { kind: 's3' }>);
    await ensureStoreComplete(config, s3);
    expect(await s3.readMarker()).toMatchObject({ complete: true, files: 0, from: 'empty' });
  });
});
