// Where release files live: $DATA_DIR/private/downloads/<random hex> (never served directly, see
// docs/decisions/0003), with uploads in progress in $DATA_DIR/private/.tmp on the same file system so
// moving a finished upload into place is one atomic rename.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../env.ts';
import { fsyncDirectory, makeDurableDirectory } from './disk.ts';

const STORED_NAME = /^[0-9a-f]{32}$/;

export function releaseFilesDir(config: Pick<Config, 'privateFilesDir'>): string {
  return path.join(config.privateFilesDir, 'downloads');
}

export function uploadTempDir(config: Pick<Config, 'privateFilesDir'>): string {
  return path.join(config.privateFilesDir, '.tmp');
}

/** A fresh random name: the user's file name never reaches the disk (docs/engineering.md#technology-choices: no path tricks). */
export function newStoredName(): string {
  return randomBytes(16).toString('hex');
}

/** The path of a stored release file; throws for a name we could not have made (a damaged row). */
export function releaseFilePath(config: Pick<Config, 'privateFilesDir'>, storedName: string): string {
  if (!STORED_NAME.test(storedName)) throw new Error(`not a stored file name: ${JSON.stringify(storedName)}`);
  return path.join(releaseFilesDir(config), storedName);
}

/**
 * Moves a finished upload into place under `storedName` (synchronous, so no request runs in between).
 * The directory is fsynced before returning: the row committed next must not outlive a rename that a
 * power cut undid.
 */
export function moveIntoPlace(config: Pick<Config, 'privateFilesDir'>, tempPath: string, storedName: string): string {
  const target = releaseFilePath(config, storedName);
  makeDurableDirectory(path.dirname(target), 0o700);
  fs.renameSync(tempPath, target);
  fsyncDirectory(path.dirname(target));
  return target;
}
