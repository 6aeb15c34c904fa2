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

export function openDatabase(file: string): Db {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // SQLite would create the file 0644; made 0600 first, its -wal and -shm inherit that mode from it.
    ensurePrivateFile(file);
  }
  const sqlite = new Database(file);
  reportFailedCommitsOfSingleRowWrites(sqlite);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  // Measured: the default 2 MB page cache makes random reads about 3x slower (docs/engineering.md#speed-notes).
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('temp_store = MEMORY');
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
 * Runs `work` inside BEGIN IMMEDIATE so a read-then-write cannot race another writer (docs/engineering.md#habits, habit 4).
 * `work` must be synchronous: better-sqlite3 transactions cannot span an await.
 */
export function writeTransaction<T>(db: Db, work: () => T): T {
  return db.$client.transaction(work).immediate();
}
