// Opens the SQLite database with the pragmas of docs/engineering.md#speed-notes and applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.ts';
import { ensurePrivateFile } from '../storage/data-dir.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

/** The busy timeout of every connection: how long a write waits for another process's write lock. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The settings of every serving process's connection; also the bench's bare reference's
 * (bench/lib/bare-api-server.ts), so both read and write the file alike.
 */
export function configureConnection(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  // Measured: the default 2 MB page cache makes random reads about 3x slower (docs/engineering.md#speed-notes).
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('temp_store = MEMORY');
}

export function openDatabase(file: string): Db {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // SQLite would create the file 0644; made 0600 first, its -wal and -shm inherit that mode from it.
    ensurePrivateFile(file);
  }
  const sqlite = new Database(file);
  reportFailedCommitsOfSingleRowWrites(sqlite);
  configureConnection(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return db;
}

/**
 * better-sqlite3's get() steps a statement once, then resets it without looking at what the reset says.
 * For a write with RETURNING outside a transaction (Drizzle's `.returning().get()`), SQLite commits at that
 * reset; when the commit fails (SQLITE_FULL on a full disk, an I/O error, a deferred foreign key) the write
 * is rolled back but get() still returns the row, and the caller acknowledges a write that never happened.
 * all() steps the statement to its end, where a failed commit throws: writing statements use it for get().
 */
function reportFailedCommitsOfSingleRowWrites(sqlite: Database.Database): void {
  const prepare = sqlite.prepare.bind(sqlite) as (source: string) => Database.Statement<unknown[]>;
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.reader && !statement.readonly) {
      const all = statement.all;
      // A method, not an arrow: `statement.raw().get()` must read the raw mode of the statement it is called on.
      statement.get = function (this: Database.Statement<unknown[]>, ...params: unknown[]) {
        return all.apply(this, params)[0];
      };
    }
    return statement;
  }) as Database.Database['prepare'];
}

/**
 * How long writeTransaction waits, in turn, before each new try for a write lock another process holds,
 * before it leaves the rest to SQLite's busy timeout: 20 µs doubling to 1.3 ms, about 2.5 ms in all.
 */
export const FAST_LOCK_RETRY_WAITS_MS = [0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28] as const;

/**
 * Runs `work` inside BEGIN IMMEDIATE so a read-then-write cannot race another writer (docs/engineering.md#habits, habit 4).
 * `work` must be synchronous: better-sqlite3 transactions cannot span an await.
 *
 * The write lock is first asked for without SQLite's busy handler, which sleeps 1, 2, 5, 10… ms between
 * tries: our write transactions hold the lock for tens of microseconds, so when two serving processes
 * write at once the loser slept 40 times longer than it needed to (measured: a floating seat's heartbeat
 * from two processes spent 30% of their time in those sleeps; docs/engineering.md#speed-notes). Instead it
 * waits FAST_LOCK_RETRY_WAITS_MS between tries and only then leaves the rest to the busy timeout. Inside a
 * transaction it is a savepoint and needs no lock.
 */
export function writeTransaction<T>(db: Pick<Db, '$client'>, work: () => T): T {
  const sqlite = db.$client;
  const run = lockedRunnerOf(sqlite);
  if (sqlite.inTransaction) return run.immediate(work, null) as T;
  const attempt = { began: false };
  for (const waitMs of FAST_LOCK_RETRY_WAITS_MS) {
    sqlite.exec(IMPATIENT);
    try {
      return run.immediate(work, attempt) as T;
    } catch (error) {
      if (attempt.began) throw error;
      sqlite.exec(PATIENT);
      if (!isBusy(error)) throw error;
    }
    Atomics.wait(LOCK_WAIT, 0, 0, waitMs);
  }
  return run.immediate(work, attempt) as T;
}

type LockedRunner = Database.Transaction<(work: () => unknown, attempt: { began: boolean } | null) => unknown>;
const lockedRunners = new WeakMap<Database.Database, LockedRunner>();

/**
 * One better-sqlite3 transaction function per connection that runs the work it is given: making a new
 * one per call (db.transaction(work)) builds four wrapped functions each time, a cost every write paid.
 * Once the lock is held, the work and the commit run with the usual timeout.
 */
function lockedRunnerOf(sqlite: Database.Database): LockedRunner {
  let runner = lockedRunners.get(sqlite);
  if (!runner) {
    runner = sqlite.transaction((work: () => unknown, attempt: { began: boolean } | null) => {
      if (attempt) {
        attempt.began = true;
        sqlite.exec(PATIENT);
      }
      return work();
    });
    lockedRunners.set(sqlite, runner);
  }
  return runner;
}

// Run with exec, never as prepared statements: SQLite applies busy_timeout when the pragma is compiled, so
// stepping a prepared one again does not set it again.
const IMPATIENT = 'PRAGMA busy_timeout = 0';
const PATIENT = `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`;

/** Something to block on for a fraction of a millisecond (Atomics.wait is the one such wait in Node). */
const LOCK_WAIT = new Int32Array(new SharedArrayBuffer(4));

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');
}
