// `npm run backup [target-dir]` (issue 8, item 6): a consistent copy of the database, taken with SQLite's
// online backup API (never a file copy, so it is safe while the server runs and writes in WAL mode), plus
// $DATA_DIR/uploads and $DATA_DIR/private without upload temp files, and $DATA_DIR/secrets (the license
// signing keys, docs/licensing.md#signing-keys-and-rotation: without them no license file issued so far would verify
// against a restored site; and the update-signing keys, docs/updates.md#signing-keys, which the installed
// software trusts) kept private: directories 0700, files 0600. Everything is written into a sibling
// temp directory and renamed into place at the end, so a failed backup leaves nothing half-written.
// Site builds are not copied: the server rebuilds the site at start when no build exists. With STORAGE=s3 the
// stored files (images, attached files, release files) are in the bucket, which a backup does not copy:
// the manifest and the output say so, naming the bucket (docs/decisions/0050-object-storage.md).
//
//   npm run backup                      → ./backups/<UTC timestamp>/
//   npm run backup -- /srv/backups/x    → that directory (must not exist yet)
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig, type Config } from '../server/env.ts';
import { LICENSE_SIGNING, loadKeyring, signingKeysDir, UPDATE_SIGNING, type KeyringKind } from '../server/signing/signing-keys.ts';
import { ensurePrivateFile, PRIVATE_DIR_MODE } from '../server/storage/data-dir.ts';

export const MANIFEST_FILE = 'manifest.json';
export const DB_FILE = 'site.db';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** Rows in drizzle's migration journal: restore refuses nothing on it, it tells which schema the copy has. */
  migrations: number;
  database: { file: string; bytes: number; sha256: string };
  /** `secrets` is absent from backups made before license signing keys existed. */
  files: { uploads: number; private: number; secrets?: number };
  /** What the secrets folder holds, in words for whoever finds the backup. */
  secrets?: BackupSecrets;
  /** Set when the stored files live in a bucket (STORAGE=s3): what this backup does not hold. */
  bucket?: { name: string; endpoint: string; note: string };
}

/** The words for what a backup leaves out when files live in a bucket; undefined with the local store. */
export function bucketNotice(config: Pick<Config, 'storage'>): BackupManifest['bucket'] {
  if (config.storage.kind !== 's3') return undefined;
  const { bucket, endpoint } = config.storage;
  return {
    name: bucket,
    endpoint: endpoint ?? 'AWS S3',
    note:
      `STORAGE=s3: images, attached files and release files live in the bucket "${bucket}", and this backup does not hold them ` +
      '(uploads/ and private/ here are only what DATA_DIR still has). Keep the bucket safe on its own: versioning or replication, ' +
      'or `npm run storage -- migrate --to local` into a DATA_DIR that you back up (README, Production).',
  };
}

export const SECRETS_DIR = 'secrets';

export interface BackupSecrets {
  dir: typeof SECRETS_DIR;
  files: number;
  /** Kids of the license signing keys carried (public, as GET /api/licensing/v1/keys shows them). */
  licenseSigningKeys: string[];
  /** Kids of the update-signing keys carried (GET /api/updates/v1/keys); absent from backups made before issue 25. */
  updateSigningKeys?: string[];
  /** LICENSE_SIGNING_KEY was set: the key that signs lives in the environment and is not in the backup. */
  signingKeyFromEnvironment: boolean;
  note: string;
}

/**
 * The kids of a keyring in the staged copy, read back from the copy (never loadKeyring on the live folder,
 * which would make a key where none is). Keys given by the environment are not in it.
 */
export function stagedKids(staging: string, secretFiles: number, kind: KeyringKind): string[] {
  const dir = signingKeysDir({ dataDir: staging }, kind);
  if (secretFiles === 0 || !fs.existsSync(dir) || !fs.readdirSync(dir).some((name) => name.endsWith('.pem'))) return [];
  return loadKeyring({ dataDir: staging }, { ...kind, fromEnvironment: () => undefined }).published.map((key) => key.kid);
}

/** Upload temp files (`*.part`, `*.tmp`, `.tmp-*`) and the `.tmp` staging folder are never worth keeping. */
export function isTempEntry(name: string): boolean {
  return name === '.tmp' || name.endsWith('.tmp') || name.endsWith('.part') || name.startsWith('.tmp-');
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Modes a copy forces whatever the umask (secrets: private keys are for their owner only). */
interface TreeModes {
  dir: number;
  file: number;
}

/** Copies `from` into `to` (created), leaving out temp entries; returns the number of files copied. */
export async function copyTree(from: string, to: string, modes?: TreeModes): Promise<number> {
  await fs.promises.mkdir(to, { recursive: true, mode: modes?.dir });
  if (modes) await fs.promises.chmod(to, modes.dir);
  if (!fs.existsSync(from)) return 0;
  let files = 0;
  for (const entry of await fs.promises.readdir(from, { withFileTypes: true })) {
    if (isTempEntry(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) files += await copyTree(source, target, modes);
    else if (entry.isFile()) {
      await fs.promises.copyFile(source, target);
      if (modes) await fs.promises.chmod(target, modes.file);
      files += 1;
    }
  }
  return files;
}

/** Copies a secrets folder: every directory 0700 and every file 0600, whatever the umask. */
export function copySecretTree(from: string, to: string): Promise<number> {
  return copyTree(from, to, { dir: 0o700, file: 0o600 });
}

export function integrityCheck(file: string): string {
  const db = new Database(file, { fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

function countMigrations(file: string): number {
  const db = new Database(file, { fileMustExist: true, readonly: true });
  try {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
    if (!exists) return 0;
    return (db.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function defaultBackupDir(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return path.resolve('backups', stamp);
}

export async function backupData(config: Config, targetDir: string = defaultBackupDir()): Promise<{ dir: string; manifest: BackupManifest }> {
  const dir = path.resolve(targetDir);
  if (!fs.existsSync(config.databaseFile)) throw new Error(`No database at ${config.databaseFile} (is DATA_DIR right?)`);
  if (fs.existsSync(dir)) throw new Error(`${dir} already exists; give a new directory`);
  await fs.promises.mkdir(path.dirname(dir), { recursive: true });
  const staging = path.join(path.dirname(dir), `.${path.basename(dir)}.partial-${randomBytes(6).toString('hex')}`);
  // A backup holds the database (password hashes, sessions) and gated files: for its owner only, like
  // DATA_DIR's private parts (server/storage/data-dir.ts). The folder's mode guards everything inside it.
  await fs.promises.mkdir(staging, { mode: PRIVATE_DIR_MODE });
  await fs.promises.chmod(staging, PRIVATE_DIR_MODE);
  try {
    const dbCopy = path.join(staging, DB_FILE);
    ensurePrivateFile(dbCopy);
    const source = new Database(config.databaseFile, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      // The online backup restarts by itself when another connection writes during the copy, so the
      // result is always one committed state of the database.
      await source.backup(dbCopy);
    } finally {
      source.close();
    }
    const integrity = integrityCheck(dbCopy);
    if (integrity !== 'ok') throw new Error(`The database copy fails PRAGMA integrity_check: ${integrity}`);
    const uploads = await copyTree(config.uploadsDir, path.join(staging, 'uploads'));
    const privateFiles = await copyTree(config.privateFilesDir, path.join(staging, 'private'));
    const secrets = await copySecretTree(path.join(config.dataDir, SECRETS_DIR), path.join(staging, SECRETS_DIR));
    const licenseSigningKeys = stagedKids(staging, secrets, LICENSE_SIGNING);
    const updateSigningKeys = stagedKids(staging, secrets, UPDATE_SIGNING);
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      migrations: countMigrations(dbCopy),
      database: { file: DB_FILE, bytes: (await fs.promises.stat(dbCopy)).size, sha256: await sha256File(dbCopy) },
      files: { uploads, private: privateFiles, secrets },
      secrets: {
        dir: SECRETS_DIR,
        files: secrets,
        licenseSigningKeys,
        updateSigningKeys,
        signingKeyFromEnvironment: Boolean(config.licenseSigningKey),
        note: `${SECRETS_DIR}/ holds private keys (license signing, update signing): keep this backup private${
          config.licenseSigningKey ? '; the signing key set in LICENSE_SIGNING_KEY is not in it' : ''
        }`,
      },
      ...(bucketNotice(config) ? { bucket: bucketNotice(config) } : {}),
    };
    await fs.promises.writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await fs.promises.rename(staging, dir);
    return { dir, manifest };
  } catch (error) {
    await fs.promises.rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const target = process.argv[2];
  console.log(`Backing up ${config.dataDir} ...`);
  const { dir, manifest } = await backupData(config, target ?? defaultBackupDir());
  console.log(`Backup written to ${dir}`);
  console.log(`  database: ${manifest.database.bytes} bytes, ${manifest.migrations} migrations, sha256 ${manifest.database.sha256}`);
  console.log(`  files: ${manifest.files.uploads} uploads, ${manifest.files.private} private`);
  const signing = manifest.secrets?.licenseSigningKeys ?? [];
  console.log(
    `  secrets: ${manifest.files.secrets ?? 0} file(s) from ${path.join(config.dataDir, SECRETS_DIR)}, with ${signing.length} license signing key${
      signing.length === 1 ? '' : 's'
    } (private keys: keep this backup private)`,
  );
  if (manifest.bucket) console.log(`  NOT in this backup: ${manifest.bucket.note}`);
  if (manifest.secrets?.signingKeyFromEnvironment) {
    console.log('  LICENSE_SIGNING_KEY is set: the key that signs license files is in the environment, not in this backup; keep it safe too.');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
