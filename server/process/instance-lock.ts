// One server per DATA_DIR (docs/decisions/0022-one-process-model.md): two servers on one data directory
// would run two publishers into the same builds/ and two mailing workers over the same queue. The lock is
// an exclusive SQLite lock on a file of its own, held by an open connection for the primary's whole life:
// SQLite takes it with fcntl, so the kernel drops it the moment the process dies, even by SIGKILL, and no
// stale lock file can ever block a restart. Two servers started at the same instant cannot both win it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateFile, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/data-dir.ts';

export const LOCK_FILE = 'server.lock';
/** Beside the lock: who holds it, for the refusal message (the locked database itself cannot be read). */
const HOLDER_FILE = 'server.pid';

export class InstanceLockedError extends Error {}

/** Held here, not only by the caller: a connection the garbage collector closed would drop the lock unseen. */
const held = new Set<Database.Database>();

export interface InstanceLock {
  release(): void;
}

/** Takes the data directory's lock, or throws InstanceLockedError naming the data directory and, when known, the holder's pid. */
export function acquireInstanceLock(dataDir: string): InstanceLock {
  const runDir = path.join(dataDir, 'run');
  fs.mkdirSync(runDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  ensurePrivateFile(path.join(runDir, LOCK_FILE));
  const connection = new Database(path.join(runDir, LOCK_FILE), { timeout: 0 });
  try {
    connection.pragma('locking_mode = EXCLUSIVE');
    // In EXCLUSIVE locking mode the write lock taken here is kept after the commit, until the connection closes.
    connection.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (error) {
    connection.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    const holder = readHolder(runDir);
    throw new InstanceLockedError(
      `Another server is already running on DATA_DIR ${dataDir}${holder ? ` (pid ${holder})` : ''}. Stop it first, or give this one its own DATA_DIR.`,
    );
  }
  held.add(connection);
  fs.writeFileSync(path.join(runDir, HOLDER_FILE), `${process.pid}\n`, { mode: PRIVATE_FILE_MODE });
  return {
    release() {
      fs.rmSync(path.join(runDir, HOLDER_FILE), { force: true });
      held.delete(connection);
      connection.close();
    },
  };
}

function readHolder(runDir: string): string | null {
  try {
    return fs.readFileSync(path.join(runDir, HOLDER_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
