// What the storage code needs from the disk beyond reading and writing: knowing that a failure was a full
// disk (the one server fault an admin can fix at once, so it gets its own clear answer instead of a bare
// 500), and making renames and new directories survive a power cut.
import fs from 'node:fs';
import path from 'node:path';

/** A full file system, a spent quota, or SQLite refusing to grow its files for either reason. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
/** libvips (sharp) reports a failed write as text only, e.g. "x.webp: write error\nsystem error: No space left on device". */
const DISK_FULL_TEXT = /no space left on device|disk quota exceeded/i;

export const DISK_FULL_MESSAGES = {
  /** For an upload: the bytes are gone, the admin has to send them again once there is room. */
  file: "The server's disk is full; the file was not saved.",
  change: "The server's disk is full; the change was not saved.",
} as const;

/** True when `error` (or one of its causes) says the disk or the quota is full. */
export function isDiskFullError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    if (DISK_FULL_TEXT.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

// Where a directory cannot be opened or fsynced (Windows, some network file systems) there is nothing
// more to do: the rename is as durable as that platform makes it.
const FSYNC_REFUSALS = new Set(['EINVAL', 'EISDIR', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP']);

/**
 * Flushes a directory's entries to disk. A rename is durable only once the directory holding the new name
 * is, so call this after moving a finished file into place and before a row names it.
 */
export function fsyncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch (error) {
    if (FSYNC_REFUSALS.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    if (!FSYNC_REFUSALS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** `mkdir -p` whose new directories survive a power cut too: the parent of each one made is fsynced. */
export function makeDurableDirectory(dir: string, mode?: number): void {
  const first = fs.mkdirSync(dir, { recursive: true, mode });
  if (first === undefined) return;
  for (let made = path.resolve(dir); ; made = path.dirname(made)) {
    fsyncDirectory(path.dirname(made));
    if (made === path.resolve(first) || path.dirname(made) === made) return;
  }
}

/** Flushes a file's bytes to disk (for files written by code that does not, such as sharp). */
export async function fsyncFile(file: string): Promise<void> {
  // Read-write: Windows refuses to flush a handle opened read-only.
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Bytes an unprivileged process may still write on the file system holding `dir` (statfs: one system call). */
export function freeDiskBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}
