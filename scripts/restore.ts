// `npm run restore -- <backup-dir> [--force]` (issue 8, item 6): brings a backup written by
// `npm run backup` back into the configured DATA_DIR. The database copy is checked against the manifest's
// SHA-256 and with PRAGMA integrity_check before anything is put in place. A DATA_DIR that already has a
// site.db is refused unless --force (stop the server first); then its database, uploads, private files and
// site builds are replaced or removed, and the next start rebuilds the site from the restored content.
// The backup's $DATA_DIR/secrets (license signing keys, docs/licensing.md#backups) is put back with
// directories 0700 and files 0600, merged into what is there: a key the DATA_DIR already has and the backup
// lacks is kept, never deleted, since files it signed would stop verifying (the newest key signs).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../server/env.ts';
import { LICENSE_SIGNING, UPDATE_SIGNING } from '../server/signing/signing-keys.ts';
import { copySecretTree, copyTree, DB_FILE, integrityCheck, MANIFEST_FILE, SECRETS_DIR, sha256File, stagedKids, type BackupManifest } from './backup.ts';
import { prepareDataDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../server/storage/data-dir.ts';
import { terminalText } from '../server/ops/terminal-text.ts';

export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
  /** Files put back into $DATA_DIR/secrets, and those already there that the backup does not have (kept). */
  secrets: { restored: number; kept: string[] };
}

/**
 * Moves every file of `from` into `to` (folders 0700, files 0600), replacing files of the same name;
 * returns how many it moved and the files of `to` it did not bring (left in place).
 */
async function mergeSecretTree(from: string, to: string): Promise<{ moved: number; kept: string[] }> {
  await fs.promises.mkdir(to, { recursive: true, mode: 0o700 });
  await fs.promises.chmod(to, 0o700);
  let moved = 0;
  const kept: string[] = [];
  const brought = new Set<string>();
  for (const entry of fs.existsSync(from) ? await fs.promises.readdir(from, { withFileTypes: true }) : []) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      const inner = await mergeSecretTree(source, target);
      moved += inner.moved;
      kept.push(...inner.kept);
    } else if (entry.isFile()) {
      await fs.promises.rename(source, target);
      await fs.promises.chmod(target, 0o600);
      moved += 1;
    }
    brought.add(entry.name);
  }
  for (const entry of await fs.promises.readdir(to, { withFileTypes: true })) {
    if (brought.has(entry.name)) continue;
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) kept.push(...(await mergeSecretTree(path.join(from, entry.name), target)).kept);
    else kept.push(target);
  }
  return { moved, kept };
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
  // A DATA_DIR made here gets the modes the server gives one (server/storage/data-dir.ts).
  prepareDataDir(config);
  const staging = path.join(config.dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  await fs.promises.mkdir(staging, { mode: PRIVATE_DIR_MODE });
  try {
    // Everything is checked in a staging folder on the same file system, then renamed into place.
    const dbCopy = path.join(staging, DB_FILE);
    await fs.promises.copyFile(dbSource, dbCopy);
    await fs.promises.chmod(dbCopy, PRIVATE_FILE_MODE);
    const sha256 = await sha256File(dbCopy);
    if (sha256 !== manifest.database.sha256) {
      throw new Error(`The database copy does not match the manifest (sha256 ${sha256}, expected ${manifest.database.sha256})`);
    }
    const integrity = integrityCheck(dbCopy);
    if (integrity !== 'ok') throw new Error(`The database copy fails PRAGMA integrity_check: ${integrity}`);
    const uploads = await copyTree(path.join(source, 'uploads'), path.join(staging, 'uploads'));
    const privateFiles = await copyTree(path.join(source, 'private'), path.join(staging, 'private'), { dir: PRIVATE_DIR_MODE, file: PRIVATE_FILE_MODE });
    const secrets = await copySecretTree(path.join(source, SECRETS_DIR), path.join(staging, SECRETS_DIR));
    if (uploads !== manifest.files.uploads || privateFiles !== manifest.files.private || secrets !== (manifest.files.secrets ?? 0)) {
      throw new Error(
        `The backup's files do not match the manifest (${uploads}/${privateFiles}/${secrets} found, ${manifest.files.uploads}/${manifest.files.private}/${manifest.files.secrets ?? 0} listed)`,
      );
    }
    // Every signing key must read as the key the manifest names, before any is put in place (the update keys
    // only when the manifest lists them: backups made before issue 25 do not).
    const checks = [
      { kind: LICENSE_SIGNING, listed: manifest.secrets?.licenseSigningKeys ?? [] },
      ...(manifest.secrets?.updateSigningKeys ? [{ kind: UPDATE_SIGNING, listed: manifest.secrets.updateSigningKeys }] : []),
    ];
    for (const { kind, listed } of checks) {
      const kids = stagedKids(staging, 1, kind);
      if (kids.length === 0) continue;
      if (kids.length !== listed.length || kids.some((kid) => !listed.includes(kid))) {
        throw new Error(`The backup's ${kind.label} keys do not match the manifest (${kids.join(', ')} found, ${listed.join(', ')} listed)`);
      }
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
    const merged = await mergeSecretTree(path.join(staging, SECRETS_DIR), path.join(config.dataDir, SECRETS_DIR));
    // Builds of the replaced content would be served as they are; without one the server rebuilds at start.
    await fs.promises.rm(config.buildsDir, { recursive: true, force: true });
    return { manifest, dataDir: config.dataDir, secrets: { restored: merged.moved, kept: merged.kept } };
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

/**
 * A line to the terminal through terminalText: the manifest and file names come from a backup that may have
 * been made elsewhere, and a raw control or bidi character would rewrite what is shown (issue 29, item 2).
 */
const say = (line: string) => console.log(terminalText(line));

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
  const backupDir = positionals[0];
  if (!backupDir || positionals.length > 1) throw new Error('usage: npm run restore -- <backup-dir> [--force]');
  const config = loadConfig();
  say(`Restoring ${path.resolve(backupDir)} into ${config.dataDir} ...`);
  const { manifest, secrets } = await restoreData(config, backupDir, { force: values.force });
  say(`Restored the database of ${manifest.createdAt} (${manifest.migrations} migrations, integrity ok)`);
  say(`  files: ${manifest.files.uploads} uploads, ${manifest.files.private} private`);
  if (manifest.files.secrets === undefined) say('  secrets: none in this backup (made before license signing keys); those in DATA_DIR are left as they are');
  else {
    const keys = manifest.secrets?.licenseSigningKeys.length ?? 0;
    say(
      `  secrets: ${secrets.restored} file(s) into ${path.join(config.dataDir, SECRETS_DIR)} (0700/0600), ${keys} license signing key${keys === 1 ? '' : 's'}`,
    );
  }
  if (secrets.kept.length > 0) {
    say(`  kept ${secrets.kept.length} secret file${secrets.kept.length === 1 ? '' : 's'} the backup does not have (still published; the newest key signs):`);
    for (const file of secrets.kept) say(`    ${file}`);
  }
  if (manifest.secrets?.signingKeyFromEnvironment) say('  The backup was made with LICENSE_SIGNING_KEY set: set it here too, it is not in the backup.');
  say('The site is rebuilt when the server starts.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(terminalText(`Restore failed: ${error instanceof Error ? error.message : String(error)}`));
    process.exit(1);
  });
}
