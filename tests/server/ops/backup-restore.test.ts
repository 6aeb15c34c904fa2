// Issue 8, item 6: a backup (SQLite online backup + uploads + private files) restored into a new DATA_DIR
// gives the same rows, the same files and a product that answers with the same content; a backup taken
// while another connection keeps writing is one consistent state. Issue 12: the license signing keys in
// $DATA_DIR/secrets travel with the backup, private (0700/0600), so files signed before still verify.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupData, isTempEntry } from '../../../scripts/backup.ts';
import { restoreData } from '../../../scripts/restore.ts';
import { insertPost } from '../../../server/features/content/queries.ts';
import { downloadItems, homeSections, posts, users } from '../../../server/db/schema.ts';
import { seedDatabase } from '../../../server/demo/seed.ts';
import { loadConfig } from '../../../server/env.ts';
import { signLicenseFile } from '../../../server/features/licensing/license-file.ts';
import { addSigningKey, loadKeyring, signingKeysDir, UPDATE_SIGNING, type Keyring } from '../../../server/signing/signing-keys.ts';
import { verifyLicenseFile } from '../../../server/features/licensing/verify-file.ts';
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
    expect(manifest.files).toMatchObject({ uploads: sourceFiles.uploads.size, private: sourceFiles.private.size });
    expect(manifest.migrations).toBeGreaterThan(0);
    expect(fs.readdirSync(path.dirname(backupDir))).toEqual(['nightly']);
    expect(integrity(path.join(backupDir, 'site.db'))).toBe('ok');
    expect(fs.existsSync(path.join(backupDir, 'private', '.tmp'))).toBe(false);
    // The backup holds password hashes and gated files: for its owner only (issue 17, item 9).
    expect(modeOf(backupDir)).toBe(0o700);
    expect(modeOf(path.join(backupDir, 'site.db'))).toBe(0o600);

    const restoredDir = tempDir('site-restored-');
    const restoredConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: restoredDir, LOG_LEVEL: 'silent' });
    await restoreData(restoredConfig, backupDir);
    expect(integrity(restoredConfig.databaseFile)).toBe('ok');
    expect(filesUnder(restoredConfig.uploadsDir)).toEqual(sourceFiles.uploads);
    expect(filesUnder(restoredConfig.privateFilesDir)).toEqual(sourceFiles.private);
    expect(modeOf(restoredConfig.databaseFile)).toBe(0o600);
    expect(modesUnder(restoredConfig.privateFilesDir).files.every((mode) => mode === 0o600)).toBe(true);
    expect(modesUnder(restoredConfig.privateFilesDir).dirs.every((mode) => mode === 0o700)).toBe(true);

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

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** Every directory and file under `dir` (itself included) with its permission bits. */
function modesUnder(dir: string): { dirs: number[]; files: number[] } {
  const out = { dirs: [modeOf(dir)], files: [] as number[] };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) out.dirs.push(modeOf(full));
    else out.files.push(modeOf(full));
  }
  return out;
}

const NOW = new Date('2026-06-01T12:00:00Z');
const sign = (keyring: Keyring, fingerprint: string) =>
  signLicenseFile(keyring, {
    issuer: 'http://localhost:4321',
    now: NOW,
    license: {
      id: 1,
      key: 'DCTL-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF',
      type: 'trial',
      user_name: 'Ann',
      company_name: null,
      email: 'ann@example.com',
      max_machines: 1,
      expire_date: '2026-07-01T12:00:00.000Z',
      entitlements: [],
      maintenance_until: null,
    },
    machine: { fingerprint, name: 'Lab PC', leaseExpiresAt: new Date('2026-06-20T00:00:00Z') },
  });

describe('backup and restore of the license signing keys', () => {
  it('carry every key, private, so files signed before and after a rotation verify with the restored keys', async () => {
    const source = context();
    const first = loadKeyring(source.config);
    const oldFile = await sign(first, 'fp-old');
    const newKid = addSigningKey(source.config, new Date(Date.now() + 1000));
    const rotated = loadKeyring(source.config);
    const newFile = await sign(rotated, 'fp-new');
    // A half-written key left by a crash is not a key.
    fs.writeFileSync(path.join(signingKeysDir(source.config), 'x.pem.tmp'), 'half');

    const backupDir = path.join(tempDir('site-backup-'), 'with-keys');
    const { manifest } = await backupData(source.config, backupDir);
    expect(manifest.files.secrets).toBe(2);
    expect(manifest.secrets).toMatchObject({ dir: 'secrets', files: 2, signingKeyFromEnvironment: false });
    expect(manifest.secrets?.licenseSigningKeys.sort()).toEqual([first.current.kid, newKid].sort());
    expect(manifest.secrets?.note).toMatch(/private/);
    expect(JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'))).toMatchObject({ files: { secrets: 2 }, secrets: { files: 2 } });
    // The copy in the backup is as private as the original.
    expect(modesUnder(path.join(backupDir, 'secrets'))).toEqual({ dirs: [0o700, 0o700], files: [0o600, 0o600] });

    const restoredDir = tempDir('site-restored-');
    const restoredConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: restoredDir, LOG_LEVEL: 'silent' });
    const previousUmask = process.umask(0o022);
    let result;
    try {
      result = await restoreData(restoredConfig, backupDir);
    } finally {
      process.umask(previousUmask);
    }
    expect(result.secrets).toEqual({ restored: 2, kept: [] });
    expect(modesUnder(path.join(restoredDir, 'secrets'))).toEqual({ dirs: [0o700, 0o700], files: [0o600, 0o600] });
    expect(fs.readdirSync(signingKeysDir(restoredConfig)).sort()).toEqual(
      fs
        .readdirSync(signingKeysDir(source.config))
        .filter((name) => name.endsWith('.pem'))
        .sort(),
    );

    const restored = loadKeyring(restoredConfig);
    expect(restored.current.kid).toBe(newKid);
    expect(restored.published).toEqual(rotated.published);
    expect(await verifyLicenseFile(oldFile, { keys: restored.published }, { now: NOW, fingerprint: 'fp-old' })).toMatchObject({ ok: true });
    expect(await verifyLicenseFile(newFile, { keys: restored.published }, { now: NOW, fingerprint: 'fp-new' })).toMatchObject({ ok: true, kid: newKid });
  });

  it('never delete a key the DATA_DIR has and the backup lacks', async () => {
    const source = context();
    const sourceKid = loadKeyring(source.config).current.kid;
    const backupDir = path.join(tempDir('site-backup-'), 'b');
    await backupData(source.config, backupDir);

    // The new host made its own key at a first start before the restore.
    const restoredDir = tempDir('site-restored-');
    const restoredConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: restoredDir, LOG_LEVEL: 'silent' });
    const localKeyring = loadKeyring(restoredConfig);
    const localFile = await sign(localKeyring, 'fp-local');
    const result = await restoreData(restoredConfig, backupDir);
    expect(result.secrets.restored).toBe(1);
    expect(result.secrets.kept).toHaveLength(1);
    expect(result.secrets.kept[0]).toContain(localKeyring.current.kid);
    const published = loadKeyring(restoredConfig).published.map((key) => key.kid);
    expect(published.sort()).toEqual([sourceKid, localKeyring.current.kid].sort());
    expect(await verifyLicenseFile(localFile, { keys: loadKeyring(restoredConfig).published }, { now: NOW })).toMatchObject({ ok: true });
  });

  it('refuse a backup whose keys are not those its manifest names, and still restore backups made before keys existed', async () => {
    const source = context();
    loadKeyring(source.config);
    const backupDir = path.join(tempDir('site-backup-'), 'b');
    await backupData(source.config, backupDir);
    const [keyFile] = fs.readdirSync(path.join(backupDir, 'secrets', 'license-signing'));
    const other = tempDir('site-other-key-');
    loadKeyring({ dataDir: other, licenseSigningKey: undefined });
    const [otherFile] = fs.readdirSync(signingKeysDir({ dataDir: other }));
    fs.copyFileSync(path.join(signingKeysDir({ dataDir: other }), otherFile as string), path.join(backupDir, 'secrets', 'license-signing', keyFile as string));
    const target = loadConfig({ NODE_ENV: 'test', DATA_DIR: tempDir('site-restored-'), LOG_LEVEL: 'silent' });
    await expect(restoreData(target, backupDir)).rejects.toThrow(/signing keys do not match the manifest/);
    expect(fs.existsSync(target.databaseFile)).toBe(false);
    expect(fs.existsSync(path.join(target.dataDir, 'secrets'))).toBe(false);

    // A backup of issue 8's format: no secrets folder, no secrets in the manifest.
    fs.rmSync(path.join(backupDir, 'secrets'), { recursive: true });
    const manifestFile = path.join(backupDir, 'manifest.json');
    const { secrets: _secrets, ...older } = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown> & { files: Record<string, unknown> };
    delete older.files.secrets;
    fs.writeFileSync(manifestFile, JSON.stringify(older));
    const result = await restoreData(target, backupDir);
    expect(result.secrets).toEqual({ restored: 0, kept: [] });
    expect(fs.existsSync(target.databaseFile)).toBe(true);
  });
});

describe('backup and restore of the update-signing keys (issue 25)', () => {
  it('carry them beside the license keys, named in the manifest, and a restore refuses a key that does not match', async () => {
    const source = context();
    const licenseKid = loadKeyring(source.config).current.kid;
    const updateKid = loadKeyring(source.config, UPDATE_SIGNING).current.kid;
    const backupDir = path.join(tempDir('site-backup-'), 'update-keys');
    const { manifest } = await backupData(source.config, backupDir);
    expect(manifest.secrets?.licenseSigningKeys).toEqual([licenseKid]);
    expect(manifest.secrets?.updateSigningKeys).toEqual([updateKid]);
    expect(modesUnder(path.join(backupDir, 'secrets')).files).toEqual([0o600, 0o600]);

    const restoredDir = tempDir('site-restored-');
    const restoredConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: restoredDir, LOG_LEVEL: 'silent' });
    await restoreData(restoredConfig, backupDir);
    expect(loadKeyring(restoredConfig, UPDATE_SIGNING).current.kid).toBe(updateKid);

    // A manifest that names another update key: the restore stops before putting anything in place.
    const manifestFile = path.join(backupDir, 'manifest.json');
    const edited = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { secrets: { updateSigningKeys: string[] } };
    edited.secrets.updateSigningKeys = ['not-the-kid'];
    fs.writeFileSync(manifestFile, JSON.stringify(edited));
    const otherDir = tempDir('site-restored-');
    await expect(restoreData(loadConfig({ NODE_ENV: 'test', DATA_DIR: otherDir, LOG_LEVEL: 'silent' }), backupDir)).rejects.toThrow(
      /update signing keys do not match/,
    );
  });
});
