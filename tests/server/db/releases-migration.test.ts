// The migration of issue 25 (drizzle/0013_releases.sql): a release's single file moves into release_files
// (as its first file, `any`/`universal`), the download log into release_downloads (once per user, release and
// day), and released_at takes each row's created_at. Run against a database made by the migrations before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/client.ts';

const migrations = path.resolve(import.meta.dirname, '../../../drizzle');
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of the migrations folder that stops before `tag`. */
function migrationsBefore(tag: string): string {
  const copy = path.join(dir, 'drizzle');
  fs.cpSync(migrations, copy, { recursive: true });
  const journalFile = path.join(copy, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(index).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, index);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return copy;
}

it('moves each release file and the download log into the new tables, losing nothing', () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-migration-'));
  const file = path.join(dir, 'site.db');
  const old = new Database(file);
  old.pragma('foreign_keys = ON');
  migrate(drizzle(old), { migrationsFolder: migrationsBefore('0013_releases') });
  old.exec(`
    INSERT INTO users (id, name, email, password_hash) VALUES (1, 'Ann', 'ann@example.com', 'x'), (2, 'Bob', 'bob@example.com', 'x');
    INSERT INTO download_items (id, title, downloadable, download_url, stored_name, size, sha256, created_at)
      VALUES (1, 'With file', 1, 'setup.exe', '${'a'.repeat(32)}', 1234, '${'b'.repeat(64)}', '2025-01-02T03:04:05.000Z'),
             (2, 'Without file', 0, NULL, NULL, 0, '', '2025-02-01T00:00:00.000Z');
    INSERT INTO download_log (download_item_id, user_id, created_at) VALUES
      (1, 1, '2025-03-01T10:00:00.000Z'), (1, 1, '2025-03-01T11:00:00.000Z'), (1, 1, '2025-03-02T10:00:00.000Z'),
      (1, 2, '2025-03-01T10:00:00.000Z'), (1, NULL, '2025-03-01T10:00:00.000Z'), (1, NULL, '2025-03-01T12:00:00.000Z');
  `);
  old.close();

  const db = openDatabase(file);
  const sqlite = db.$client;
  expect(sqlite.prepare('SELECT id, released_at, channel, version, entitlement FROM download_items ORDER BY id').all()).toEqual([
    { id: 1, released_at: '2025-01-02T03:04:05.000Z', channel: 'stable', version: null, entitlement: null },
    { id: 2, released_at: '2025-02-01T00:00:00.000Z', channel: 'stable', version: null, entitlement: null },
  ]);
  const columns = (sqlite.prepare("SELECT name FROM pragma_table_info('download_items')").all() as Array<{ name: string }>).map((c) => c.name);
  expect(columns).not.toContain('stored_name');
  expect(sqlite.prepare('SELECT download_item_id, name, stored_name, size, sha256, sha512, platform, arch FROM release_files').all()).toEqual([
    {
      download_item_id: 1,
      name: 'setup.exe',
      stored_name: 'a'.repeat(32),
      size: 1234,
      sha256: 'b'.repeat(64),
      sha512: null,
      platform: 'any',
      arch: 'universal',
    },
  ]);
  // Ann's two downloads on 1 March are one; the downloads of deleted users each stay one.
  const downloads = sqlite.prepare('SELECT downloader, day FROM release_downloads ORDER BY downloader, day').all() as Array<{
    downloader: string;
    day: string;
  }>;
  expect(downloads.map((row) => `${row.downloader.startsWith('log:') ? 'gone' : row.downloader} ${row.day}`)).toEqual([
    'gone 2025-03-01',
    'gone 2025-03-01',
    'user:1 2025-03-01',
    'user:1 2025-03-02',
    'user:2 2025-03-01',
  ]);
  expect(sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'download_log'").get()).toEqual({ n: 0 });
  sqlite.close();
});
