// Issue 8, item 6: a backup (SQLite online backup + uploads + private files) restored into a new DATA_DIR
// gives the same rows, the same files and a product that answers with the same content; a backup taken
// while another connection keeps writing is one consistent state.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupData, isTempEntry } from '../../../scripts/backup.ts';
import { restoreData } from '../../../scripts/restore.ts';
import { insertPost } from '../../../server/db/queries/posts.ts';
import { downloadItems, homeSections, posts, users } from '../../../server/db/schema.ts';
import { seedDatabase } from '../../../server/db/seed.ts';
import { loadConfig } from '../../../server/env.ts';
import { createTestContext, makeTempDir, type TestContext } from '../../helpers/test-context.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function context(env: Parameters<typeof createTestContext>[0] = {}): TestContext {
  const ctx = createTestContext(env);
  cleanups.push(() => ctx.cleanup());
  return ctx;
}

/** Relative path → bytes of every non-temp file under `dir`. */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    if (rel.split(path.sep).some(isTempEntry)) continue;
    out.set(rel, fs.readFileSync(full));
  }
  return out;
}

function rowsOf(ctx: TestContext) {
  return {
    users: ctx.db.select().from(users).orderBy(users.id).all(),
    posts: ctx.db.select().from(posts).orderBy(posts.id).all(),
    homeSections: ctx.db.select().from(homeSections).orderBy(homeSections.id).all(),
    downloads: ctx.db.select().from(downloadItems).orderBy(downloadItems.id).all(),
  };
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  } finally {
    db.close();
  }
}

describe('backup and restore', () => {
  it('restores into a new DATA_DIR with the same rows, files and API answers', async () => {
    const source = context();
    await seedDatabase(source);
    const anyPost = source.db.select().from(posts).limit(1).get();
    if (!anyPost) throw new Error('the seed wrote no post');
    insertPost(source.db, anyPost.namespace, {
      section_id: anyPost.section_id,
      title: 'Written before the backup',
      body: 'Kept.',
      published: true,
      display_order: 99,
      user_id: null,
    });
    // Upload leftovers that a backup must not carry.
    fs.mkdirSync(path.join(source.config.privateFilesDir, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(source.config.privateFilesDir, '.tmp', 'abc.part'), 'half an upload');
    fs.writeFileSync(path.join(source.config.uploadsDir, 'stray.part'), 'half an image');

    const sourceFiles = { uploads: filesUnder(source.config.uploadsDir), private: filesUnder(source.config.privateFilesDir) };
    expect(sourceFiles.uploads.size + sourceFiles.private.size).toBeGreaterThan(0);

    const backupDir = path.join(tempDir('site-backup-'), 'nightly');
    const { dir, manifest } = await backupData(source.config, backupDir);
    expect(dir).toBe(backupDir);
    expect(manifest.files).toEqual({ uploads: sourceFiles.uploads.size, private: sourceFiles.private.size });
    expect(manifest.migrations).toBeGreaterThan(0);
    expect(fs.readdirSync(path.dirname(backupDir))).toEqual(['nightly']);
    expect(integrity(path.join(backupDir, 'site.db'))).toBe('ok');
    expect(fs.existsSync(path.join(backupDir, 'private', '.tmp'))).toBe(false);

    const restoredDir = tempDir('site-restored-');
    const restoredConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: restoredDir, LOG_LEVEL: 'silent' });
    await restoreData(restoredConfig, backupDir);
    expect(integrity(restoredConfig.databaseFile)).toBe('ok');
    expect(filesUnder(restoredConfig.uploadsDir)).toEqual(sourceFiles.uploads);
    expect(filesUnder(restoredConfig.privateFilesDir)).toEqual(sourceFiles.private);

    // A second restore over a live DATA_DIR needs --force.
    await expect(restoreData(restoredConfig, backupDir)).rejects.toThrow(/--force/);

    const restored = context({ env: { DATA_DIR: restoredDir, CONTENT_DIR: path.join(restoredDir, 'content') } });
    expect(rowsOf(restored)).toEqual(rowsOf(source));
    expect(rowsOf(restored).posts.some((post) => post.title === 'Written before the backup')).toBe(true);

    const home = async (ctx: TestContext) => {
      const response = await ctx.app.request('/api/home/getSections');
      expect(response.status).toBe(200);
      return response.json();
    };
    expect(await home(restored)).toEqual(await home(source));
  });

  it('refuses a backup whose database does not match its manifest', async () => {
    const source = context();
    await seedDatabase(source);
    const backupDir = path.join(tempDir('site-backup-'), 'b');
    await backupData(source.config, backupDir);
    fs.appendFileSync(path.join(backupDir, 'site.db'), 'tampered');
    const restoredDir = tempDir('site-restored-');
    const restoredConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: restoredDir, LOG_LEVEL: 'silent' });
    await expect(restoreData(restoredConfig, backupDir)).rejects.toThrow(/does not match the manifest/);
    expect(fs.existsSync(restoredConfig.databaseFile)).toBe(false);
  });

  it('takes a consistent copy while another connection keeps writing', async () => {
    const source = context();
    const sqlite = source.db.$client;
    // Enough pages that the online backup runs in many steps, yielding to the writer in between.
    sqlite.exec('CREATE TABLE filler (grp INTEGER NOT NULL, payload BLOB NOT NULL)');
    const insert = sqlite.prepare('INSERT INTO filler (grp, payload) VALUES (?, randomblob(2000))');
    const pair = sqlite.transaction((group: number) => {
      insert.run(group);
      insert.run(group);
    });
    for (let group = 0; group < 2000; group += 1) pair(group);

    let written = 0;
    let done = false;
    const writer = (async () => {
      for (let group = 2000; !done && written < 40; group += 1) {
        pair(group);
        written += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const backupDir = path.join(tempDir('site-backup-'), 'live');
    try {
      await backupData(source.config, backupDir);
    } finally {
      done = true;
      await writer;
    }
    expect(written).toBeGreaterThan(0);

    const copy = path.join(backupDir, 'site.db');
    expect(integrity(copy)).toBe('ok');
    const db = new Database(copy, { readonly: true });
    try {
      const broken = db.prepare('SELECT grp FROM filler GROUP BY grp HAVING count(*) <> 2').all();
      expect(broken).toEqual([]);
      const groups = (db.prepare('SELECT count(DISTINCT grp) AS n FROM filler').get() as { n: number }).n;
      expect(groups).toBeGreaterThanOrEqual(2000);
      expect(groups).toBeLessThanOrEqual(2000 + written);
    } finally {
      db.close();
    }
  });
});
