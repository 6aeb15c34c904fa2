// Modes of what the server creates in DATA_DIR (issue 17, item 9; docs/decisions/0027-transport-limits.md).
// Private things are for the server's own user: folders 0700, files 0600 (the database and its -wal/-shm,
// gated files, the mail outbox, secrets, the run lock). Each is given its mode when it is created (the
// umask can only narrow it), never left to the umask, which commonly makes files readable by every user.
// DATA_DIR itself is 0711: other users may pass through it but not list it, so a web server running as
// another user (nginx, README "Production") can still serve the public build under builds/current; builds/
// and uploads/ (public images, also served at /media) keep ordinary readable modes.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../env.ts';

export const DATA_DIR_MODE = 0o711;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The folders for the server's eyes only (secrets/ is made 0700 where its keys are written, signing/signing-keys.ts). */
export function privateDataDirs(config: Pick<Config, 'dataDir' | 'privateFilesDir' | 'outboxDir'>): string[] {
  return [config.privateFilesDir, config.outboxDir, path.join(config.dataDir, 'run')];
}

/** Creates DATA_DIR (0711) and its private folders (0700) if they are missing; what exists is left as the operator made it. */
export function prepareDataDir(config: Pick<Config, 'dataDir' | 'privateFilesDir' | 'outboxDir'>): void {
  if (fs.mkdirSync(config.dataDir, { recursive: true, mode: DATA_DIR_MODE }) !== undefined) fs.chmodSync(config.dataDir, DATA_DIR_MODE);
  for (const dir of privateDataDirs(config)) fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates an empty file with mode 0600 unless it exists (for files another library creates, e.g. SQLite's). */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
}
