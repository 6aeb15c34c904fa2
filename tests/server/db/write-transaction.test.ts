// writeTransaction asks for the write lock without SQLite's busy handler first (it sleeps 1 ms and more
// between tries, far longer than our transactions hold the lock) and waits FAST_LOCK_RETRY_WAITS_MS between
// its own tries, then leaves the rest to the busy timeout. Another process's lock is played by a worker
// thread with its own connection to the same file, holding BEGIN IMMEDIATE for a while.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FAST_LOCK_RETRY_WAITS_MS, openDatabase, writeTransaction, type Db } from '../../../server/db/client.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Holds the write lock of `file` from another connection for `holdMs`; resolves once it holds it, with its end. */
async function holdWriteLock(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.module);
     const db = new Database(workerData.file);
     db.exec('BEGIN IMMEDIATE');
     db.prepare('INSERT INTO counters (name, value) VALUES (?, 1)').run('held');
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { module: betterSqlite3, file, holdMs } },
  );
  const released = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return { released };
}

let dir: string;
let file: string;
let db: Db;
beforeEach(() => {
  dir = makeTempDir('write-transaction-');
  file = path.join(dir, 'site.db');
  db = openDatabase(file);
  db.$client.exec('CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
});
afterEach(() => {
  vi.restoreAllMocks();
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const busyTimeout = () => db.$client.pragma('busy_timeout', { simple: true });
const increment = (name: string) =>
  db.$client.prepare('INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1').run(name);
const valueOf = (name: string) => (db.$client.prepare('SELECT value FROM counters WHERE name = ?').get(name) as { value: number } | undefined)?.value;

describe('writeTransaction', () => {
  it('takes a free lock at once, runs the work with the usual busy timeout, and keeps that timeout after', () => {
    const wait = vi.spyOn(Atomics, 'wait');
    const seen = writeTransaction(db, () => {
      increment('a');
      return busyTimeout();
    });
    expect(seen).toBe(5000);
    expect(busyTimeout()).toBe(5000);
    expect(valueOf('a')).toBe(1);
    expect(wait).not.toHaveBeenCalled();
  });

  it('tries again in short waits while another connection holds the lock, runs the work once, and commits it', async () => {
    // Held for 30 ms: longer than all the short waits together, so the last try waits in SQLite's busy handler.
    const { released } = await holdWriteLock(file, 30);
    const wait = vi.spyOn(Atomics, 'wait');
    const work = vi.fn(() => increment('a'));
    writeTransaction(db, work);
    await released;
    expect(work).toHaveBeenCalledTimes(1);
    expect(wait.mock.calls.map((call) => call[3])).toEqual([...FAST_LOCK_RETRY_WAITS_MS]);
    expect(valueOf('a')).toBe(1);
    // The other connection's write landed too: the lock was waited for, not taken from it.
    expect(valueOf('held')).toBe(1);
    expect(busyTimeout()).toBe(5000);
  });

  it('rolls back work that throws, does not run it again, and restores the timeout', () => {
    const work = vi.fn(() => {
      increment('a');
      throw new Error('the work failed');
    });
    expect(() => writeTransaction(db, work)).toThrow('the work failed');
    expect(work).toHaveBeenCalledTimes(1);
    expect(valueOf('a')).toBeUndefined();
    expect(db.$client.inTransaction).toBe(false);
    expect(busyTimeout()).toBe(5000);
  });

  it('does not retry a busy error raised by the work itself: only the lock is asked for again', () => {
    const work = vi.fn(() => {
      throw new Database.SqliteError('database is locked', 'SQLITE_BUSY');
    });
    expect(() => writeTransaction(db, work)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(work).toHaveBeenCalledTimes(1);
    expect(busyTimeout()).toBe(5000);
  });

  it('is a savepoint inside a transaction: an inner failure undoes only the inner work', () => {
    writeTransaction(db, () => {
      increment('outer');
      expect(() =>
        writeTransaction(db, () => {
          increment('inner');
          throw new Error('inner failed');
        }),
      ).toThrow('inner failed');
    });
    expect(valueOf('outer')).toBe(1);
    expect(valueOf('inner')).toBeUndefined();
  });
});
