// Writes an uploaded file's bytes to a temporary file as they arrive, hashing them on the way, so a
// release of gigabytes never sits in memory and its SHA-256 and SHA-512 cost no second pass over the disk.
// A temp file that does not end up moved into place is always removed: over the limit, a client that
// went away, a full disk.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class UploadTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`The file is larger than the limit of ${formatBytes(maxBytes)}.`);
    this.maxBytes = maxBytes;
  }
}

export interface ReceivedFile {
  tempPath: string;
  size: number;
  /** Lower-case hex. */
  sha256: string;
  /** Lower-case hex (electron-updater's latest.yml checks it; issue 25). */
  sha512: string;
}

const TEMP_SUFFIX = '.part';

/** Streams `chunks` into a new file in `tmpDir`; throws UploadTooLargeError past maxBytes (the partial file removed). */
export async function receiveToTempFile(chunks: AsyncIterable<Uint8Array>, options: { tmpDir: string; maxBytes: number }): Promise<ReceivedFile> {
  await fs.promises.mkdir(options.tmpDir, { recursive: true, mode: 0o700 });
  const tempPath = path.join(options.tmpDir, `${randomBytes(16).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await fs.promises.open(tempPath, 'wx', 0o600);
  const hash = createHash('sha256');
  const hash512 = createHash('sha512');
  let size = 0;
  let closed = false;
  try {
    for await (const chunk of chunks) {
      size += chunk.length;
      // Checked before writing, so the partial file never exceeds the limit either.
      if (size > options.maxBytes) throw new UploadTooLargeError(options.maxBytes);
      hash.update(chunk);
      hash512.update(chunk);
      // Awaiting each write is the back-pressure: the next chunk is read from the network only once
      // this one is on its way to disk.
      let offset = 0;
      while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
    }
    // The row that will name this file says it is complete: make that true across a power cut too.
    await handle.datasync();
    closed = true;
    await handle.close();
    return { tempPath, size, sha256: hash.digest('hex'), sha512: hash512.digest('hex') };
  } catch (error) {
    if (!closed) await handle.close().catch(() => {});
    await fs.promises.rm(tempPath, { force: true });
    throw error;
  }
}

/** Removes a file, ignoring one that is already gone; other failures are reported, not thrown. */
export async function removeQuietly(file: string, onError?: (error: unknown) => void): Promise<void> {
  try {
    await fs.promises.rm(file, { force: true });
  } catch (error) {
    onError?.(error);
  }
}

/**
 * Removes temp files older than `maxAgeMs`: the ones a crash (not an ordinary failure, which cleans up)
 * left behind. Only our own `.part` files, so other features may share the directory.
 */
export async function sweepStaleTempFiles(tmpDir: string, maxAgeMs: number, now: number = Date.now()): Promise<number> {
  let removed = 0;
  for (const file of await listTempFiles(tmpDir)) {
    try {
      const stat = await fs.promises.stat(file);
      if (now - stat.mtimeMs > maxAgeMs) {
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    } catch {
      // Gone meanwhile, or unreadable: nothing to sweep.
    }
  }
  return removed;
}

/**
 * The `.part` files in `tmpDir` now, however young. Listed before the server listens, they can only be
 * the remains of uploads a crash (kill -9, power cut) cut short, which the day-old sweep would leave for a
 * day; their random names are never used again, so removing exactly these later cannot hit a new upload.
 */
export async function listTempFiles(tmpDir: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(tmpDir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(TEMP_SUFFIX)).map((entry) => path.join(tmpDir, entry.name));
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}
