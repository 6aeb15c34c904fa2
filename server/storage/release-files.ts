// Release files (docs/decisions/0050-object-storage.md): stored through `ctx.storage` under
// releaseFileKey(<random hex>) (server/storage/object-store/keys.ts), which the local store keeps at
// $DATA_DIR/private/downloads/<random hex> (never served directly, see docs/decisions/0003). Uploads in
// progress are in $DATA_DIR/private/.tmp, on the same file system, so the local store takes a finished
// upload over with one atomic rename.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../env.ts';

export function uploadTempDir(config: Pick<Config, 'privateFilesDir'>): string {
  return path.join(config.privateFilesDir, '.tmp');
}

/** A fresh random name: the user's file name never reaches the disk (docs/engineering.md#technology-choices: no path tricks). */
export function newStoredName(): string {
  return randomBytes(16).toString('hex');
}
