// Fault drill (issue 8): a full disk under the real server process. DATA_DIR is a small tmpfs, so the disk
// really fills: a release and an extra file larger than the free space, then (with the rest of the disk
// taken by a filler file) an image and a database write. Each answers 507 with a plain message, leaves no
// partial file and no row, and the server keeps answering; once space is freed, uploads work again.
//
// Mounting needs root (CI runs as root). Where it is refused the drill is skipped with the reason printed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAllServers, loginAdmin, startServer, type HttpClient, type ServerProcess } from '../../helpers/server-process.ts';
import { openStreamedUpload } from '../../helpers/streamed-upload.ts';

const MiB = 1024 * 1024;
/** Room for the migrated database and the logins (under 1 MiB), far less than the uploads below. */
const DISK_BYTES = 48 * MiB;
const TOO_LARGE_BYTES = 64 * MiB;
const FILE_MESSAGE = { message: "The server's disk is full; the file was not saved." };
const CHANGE_MESSAGE = { message: "The server's disk is full; the change was not saved." };

const mountRefusal = probeTmpfsMount();
if (mountRefusal) console.warn(`full-disk drill skipped: ${mountRefusal}`);

/** Null when this process may mount a tmpfs, else why not (tried on a throwaway directory). */
function probeTmpfsMount(): string | null {
  if (process.platform !== 'linux') return `it mounts a tmpfs, which needs Linux (this is ${process.platform})`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'full-disk-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    const detail = String((error as { stderr?: Buffer }).stderr ?? '').trim() || (error as Error).message;
    return `mounting a tmpfs was refused (${detail}); run the tests as root, as CI does, to drill a full disk`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let mountDir = '';
let server: ServerProcess;
let admin: HttpClient;

beforeAll(async () => {
  if (mountRefusal) return;
  mountDir = fs.mkdtempSync(path.join(os.tmpdir(), 'full-disk-drill-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES},mode=0700`, 'tmpfs', mountDir], { stdio: 'pipe' });
  fs.mkdirSync(path.join(mountDir, 'content'));
  server = await startServer(mountDir);
  admin = await loginAdmin(server.base);
});

afterAll(async () => {
  await killAllServers();
  if (!mountDir) return;
  try {
    execFileSync('umount', [mountDir], { stdio: 'pipe' });
  } catch {
    // Still busy (a child that has not let go yet): detach it now, the kernel frees it when unused.
    execFileSync('umount', ['-l', mountDir], { stdio: 'pipe' });
  }
  fs.rmSync(mountDir, { recursive: true, force: true });
});

function freeBytes(): number {
  const stats = fs.statfsSync(mountDir);
  return stats.bavail * stats.bsize;
}

/** Every file under DATA_DIR, relative to it. */
function allFiles(dir = mountDir): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(mountDir, path.join(entry.parentPath, entry.name))] : []));
}

/** Temp or partial files of any upload path: `.part` (releases, extra files) and `.tmp-*` (image variants). */
function partialFiles(): string[] {
  return allFiles().filter((file) => file.endsWith('.part') || path.basename(file).startsWith('.tmp-'));
}

function countRows(table: 'download_items' | 'uploaded_files' | 'uploaded_images' | 'home_sections'): number {
  const db = new Database(path.join(mountDir, 'site.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function integrityCheck(): unknown {
  const db = new Database(path.join(mountDir, 'site.db'), { readonly: true, fileMustExist: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

/** Bytes the server has written of the upload in progress (its `.part` file in the upload temp dir). */
function receivedBytes(): number {
  const tmpDir = path.join(mountDir, 'private', '.tmp');
  let largest = 0;
  for (const name of fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : []) {
    try {
      if (name.endsWith('.part')) largest = Math.max(largest, fs.statSync(path.join(tmpDir, name)).size);
    } catch {
      // Removed meanwhile: the server gave up on it.
    }
  }
  return largest;
}

/** How far the client may run ahead of what the server has written. */
const MAX_LEAD_BYTES = 4 * MiB;

/**
 * POSTs a multipart form whose file part is `size` generated bytes and stops sending once the server has
 * answered. It never runs more than MAX_LEAD_BYTES ahead of the server's temp file, so the disk fills
 * while the upload is still being sent, as with a real client. The bytes already on their way when the
 * server answers 507 are read by its lingering close (server/http/lingering-close.ts), not reset: a reset
 * would make this client fail with EPIPE before reading the answer.
 */
async function postLargeFile(pathname: string, fields: Record<string, string>, filename: string, size: number): Promise<{ status: number; body: unknown }> {
  const {
    request,
    head,
    tail,
    answer: raw,
  } = openStreamedUpload({
    url: new URL(pathname, server.base),
    headers: admin.headers(),
    fields,
    file: { name: filename, type: 'application/octet-stream', size },
  });
  let answered = false;
  request.once('response', () => (answered = true));
  const answer = raw.then(({ status, body }) => ({ status, body: body === '' ? null : (JSON.parse(body) as unknown) }));
  const closed = new Promise<void>((resolve) => request.once('close', () => resolve()));
  // A write's callback may never come once the connection is gone.
  const write = (data: Buffer | string) => Promise.race([new Promise<void>((resolve) => request.write(data, () => resolve())), closed]);
  const stopped = () => answered || request.destroyed;
  await write(head);
  const chunk = Buffer.alloc(256 * 1024, 0x5a);
  for (let sent = 0; sent < size && !stopped(); sent += chunk.length) {
    while (sent - receivedBytes() > MAX_LEAD_BYTES && !stopped()) await new Promise((resolve) => setTimeout(resolve, 5));
    if (!stopped()) await write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
  }
  if (!stopped()) request.end(tail);
  return answer;
}

/** Fills the disk to the last byte with one file; returns its path (remove it to free the space). */
function fillDisk(): string {
  const filler = path.join(mountDir, 'filler.bin');
  const fd = fs.openSync(filler, 'w');
  try {
    for (const size of [MiB, 4096, 1]) {
      const buffer = Buffer.alloc(size, 1);
      try {
        for (;;) fs.writeSync(fd, buffer);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

async function expectServerAnswers(): Promise<void> {
  expect(server.alive()).toBe(true);
  const user = await admin.json('GET', '/api/user');
  expect(user.status).toBe(200);
  const list = await admin.json('GET', '/api/downloads/getSections');
  expect(list.status).toBe(200);
  expect(((await list.json()) as { sections: unknown[] }).sections).toEqual([]);
}

describe('a full disk under the real server process', () => {
  it.skipIf(mountRefusal !== null)('refuses a release larger than the free space with 507, keeping nothing and staying up', async () => {
    const before = freeBytes();
    expect(before).toBeLessThan(TOO_LARGE_BYTES);

    const answer = await postLargeFile(
      '/api/downloads/store',
      { title: 'Too large for the disk', release: '1.0.0', downloadable: '1' },
      'huge.zip',
      TOO_LARGE_BYTES,
    );
    expect(answer).toEqual({ status: 507, body: FILE_MESSAGE });

    // No partial file anywhere (its space is back, so no unlinked file is held open either), no row.
    expect(partialFiles()).toEqual([]);
    expect(allFiles().filter((file) => file.startsWith('private'))).toEqual([]);
    expect(freeBytes()).toBeGreaterThan(before - MiB);
    expect(countRows('download_items')).toBe(0);
    await expectServerAnswers();
    expect(server.output()).toContain('POST /api/downloads/store failed: the disk is full');
  });

  it.skipIf(mountRefusal !== null)('refuses an extra file larger than the free space the same way', async () => {
    const before = freeBytes();
    const answer = await postLargeFile('/api/news/extrafiles', { description: 'too large' }, 'huge.pdf', TOO_LARGE_BYTES);
    expect(answer).toEqual({ status: 507, body: FILE_MESSAGE });
    expect(partialFiles()).toEqual([]);
    expect(allFiles().filter((file) => file.startsWith('private'))).toEqual([]);
    expect(freeBytes()).toBeGreaterThan(before - MiB);
    expect(countRows('uploaded_files')).toBe(0);
    await expectServerAnswers();
  });

  it.skipIf(mountRefusal !== null)('refuses an image and a database write on a disk with no byte left, then works again once space is freed', async () => {
    const filler = fillDisk();
    expect(freeBytes()).toBe(0);

    // The image is read into memory fine; writing its variants fails (libvips reports it only in words).
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3a6ea5' } })
      .png()
      .toBuffer();
    const imageForm = new FormData();
    imageForm.append('title', 'On a full disk');
    imageForm.append('file', new File([png], 'full.png', { type: 'image/png' }));
    const image = await fetch(`${server.base}/api/news/images`, { method: 'POST', headers: admin.headers(), body: imageForm });
    expect({ status: image.status, body: await image.json() }).toEqual({ status: 507, body: FILE_MESSAGE });
    expect(partialFiles()).toEqual([]);
    expect(allFiles().filter((file) => file.startsWith('uploads'))).toEqual([]);
    expect(countRows('uploaded_images')).toBe(0);

    // SQLite cannot grow its write-ahead log: SQLITE_FULL becomes the same clear answer, not a crash.
    const section = await admin.json('POST', '/api/home/store', { title: 'Never saved', body: 'x'.repeat(200_000), order: 1 });
    expect({ status: section.status, body: await section.json() }).toEqual({ status: 507, body: CHANGE_MESSAGE });
    expect(countRows('home_sections')).toBe(0);
    await expectServerAnswers();

    fs.rmSync(filler);
    const content = Buffer.alloc(256 * 1024, 0x42);
    const form = new FormData();
    form.append('title', 'After the cleanup');
    form.append('release', '1.0.1');
    form.append('downloadable', '1');
    form.append('file', new File([content], 'small.zip', { type: 'application/zip' }));
    const stored = await fetch(`${server.base}/api/downloads/store`, { method: 'POST', headers: admin.headers(), body: form });
    expect(stored.status).toBe(201);
    const { release } = (await stored.json()) as { release: { size: number } };
    expect(release.size).toBe(content.length);
    const releaseFiles = allFiles().filter((file) => file.startsWith(path.join('private', 'downloads')));
    expect(releaseFiles).toHaveLength(1);
    expect(fs.statSync(path.join(mountDir, releaseFiles[0] as string)).size).toBe(content.length);

    const saved = await admin.json('POST', '/api/home/store', { title: 'Saved now', body: 'x'.repeat(200_000), order: 1 });
    expect(saved.status).toBe(201);
    expect(countRows('home_sections')).toBe(1);
    expect(partialFiles()).toEqual([]);
    expect(integrityCheck()).toBe('ok');
    expect(server.alive()).toBe(true);
  });
});
