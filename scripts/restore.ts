// `npm run restore -- <backup-dir> [--force]` (issue 8, item 6): brings a backup written by
// `npm run backup` back into the configured DATA_DIR. The database copy is checked against the manifest's
// SHA-256 and with PRAGMA integrity_check before anything is put in place. A DATA_DIR that already has a
// site.db is refused unless --force (stop the server first); then its database, uploads, private files and
// site builds are replaced or removed, and the next start rebuilds the site from the restored content.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../server/env.ts';
import { copyTree, DB_FILE, integrityCheck, MANIFEST_FILE, sha256File, type BackupManifest } from './backup.ts';

export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
}

async function readManifest(backupDir: string): Promise<BackupManifest> {
  const file = path.join(backupDir, MANIFEST_FILE);
  if (!fs.existsSync(file)) throw new Error(`${file} not found: not a backup directory`);
  const manifest = JSON.parse(await fs.promises.readFile(file, 'utf8')) as BackupManifest;
  if (manifest.format !== 1 || typeof manifest.database?.sha256 !== 'string') throw new Error(`${file}: unknown manifest format`);
  return manifest;
}

export async function restoreData(config: Config, backupDir: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const source = path.resolve(backupDir);
  const manifest = await readManifest(source);
  const dbSource = path.join(source, manifest.database.file || DB_FILE);
  if (!fs.existsSync(dbSource)) throw new Error(`${dbSource} is missing from the backup`);
  if (fs.existsSync(config.databaseFile) && !options.force) {
    throw new Error(`${config.databaseFile} already exists; stop the server and pass --force to replace it`);
  }
  await fs.promises.mkdir(config.dataDir, { recursive: true });
  const staging = path.join(config.dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  await fs.promises.mkdir(staging);
  try {
    // Everything is checked in a staging folder on the same file system, then renamed into place.
    const dbCopy = path.join(staging, DB_FILE);
    await fs.promises.copyFile(dbSource, dbCopy);
    const sha256 = await sha256File(dbCopy);
    if (sha256 !== manifest.database.sha256) {
      throw new Error(`The database copy does not match the manifest (sha256 ${sha256}, expected ${manifest.database.sha256})`);
    }
    const integrity = integrityCheck(dbCopy);
    if (integrity !== 'ok') throw new Error(`The database copy fails PRAGMA integrity_check: ${integrity}`);
    const uploads = await copyTree(path.join(source, 'uploads'), path.join(staging, 'uploads'));
    const privateFiles = await copyTree(path.join(source, 'private'), path.join(staging, 'private'));
    if (uploads !== manifest.files.uploads || privateFiles !== manifest.files.private) {
      throw new Error(
        `The backup's files do not match the manifest (${uploads}/${privateFiles} found, ${manifest.files.uploads}/${manifest.files.private} listed)`,
      );
    }

    for (const suffix of ['-wal', '-shm', '']) await fs.promises.rm(`${config.databaseFile}${suffix}`, { force: true });
    await fs.promises.rename(dbCopy, config.databaseFile);
    for (const [from, to] of [
      [path.join(staging, 'uploads'), config.uploadsDir],
      [path.join(staging, 'private'), config.privateFilesDir],
    ] as const) {
      await fs.promises.rm(to, { recursive: true, force: true });
      await fs.promises.rename(from, to);
    }
    // Builds of the replaced content would be served as they are; without one the server rebuilds at start.
    await fs.promises.rm(config.buildsDir, { recursive: true, force: true });
    return { manifest, dataDir: config.dataDir };
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
  const backupDir = positionals[0];
  if (!backupDir || positionals.length > 1) throw new Error('usage: npm run restore -- <backup-dir> [--force]');
  const config = loadConfig();
  console.log(`Restoring ${path.resolve(backupDir)} into ${config.dataDir} ...`);
  const { manifest } = await restoreData(config, backupDir, { force: values.force });
  console.log(`Restored the database of ${manifest.createdAt} (${manifest.migrations} migrations, integrity ok)`);
  console.log(`  files: ${manifest.files.uploads} uploads, ${manifest.files.private} private`);
  console.log('The site is rebuilt when the server starts.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
