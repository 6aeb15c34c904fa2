// The disk helpers: recognising a full disk however it is reported, and fsyncing the directories that
// hold a renamed file. A test cannot prove a rename survives a power cut; it proves the fsync is made on
// the right directory, and that a platform refusing directory fsync is no error.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fsyncDirectory, isDiskFullError, makeDurableDirectory } from '../../../server/storage/disk.ts';
import { createLocalObjectStore, releaseFileKey } from '../../../server/storage/object-store/index.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('disk-');
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function errnoError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed`), { code });
}

/** The directories opened and then fsynced while `work` runs. */
function fsyncedDirectories(work: () => void): string[] {
  const synced = watchDirectoryFsyncs();
  work();
  vi.restoreAllMocks();
  return synced;
}

async function fsyncedDirectoriesOf(work: () => Promise<void>): Promise<string[]> {
  const synced = watchDirectoryFsyncs();
  await work();
  vi.restoreAllMocks();
  return synced;
}

function watchDirectoryFsyncs(): string[] {
  const opened = new Map<number, string>();
  const open = fs.openSync;
  vi.spyOn(fs, 'openSync').mockImplementation((file, flags, mode) => {
    const fd = open(file, flags, mode);
    opened.set(fd, String(file));
    return fd;
  });
  const synced: string[] = [];
  const fsync = fs.fsyncSync;
  vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
    const file = opened.get(fd);
    if (file !== undefined && fs.statSync(file).isDirectory()) synced.push(file);
    fsync(fd);
  });
  return synced;
}

describe('isDiskFullError', () => {
  it('knows a full disk by its code, its cause or the words libvips uses', () => {
    expect(isDiskFullError(errnoError('ENOSPC'))).toBe(true);
    expect(isDiskFullError(errnoError('EDQUOT'))).toBe(true);
    expect(isDiskFullError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(isDiskFullError(new Error('saving failed', { cause: errnoError('ENOSPC') }))).toBe(true);
    expect(isDiskFullError(new Error('/data/uploads/news/x.webp: write error\nsystem error: No space left on device'))).toBe(true);
  });

  it('says no to other failures', () => {
    expect(isDiskFullError(errnoError('EACCES'))).toBe(false);
    expect(isDiskFullError(Object.assign(new Error('constraint failed'), { code: 'SQLITE_CONSTRAINT' }))).toBe(false);
    expect(isDiskFullError('ENOSPC')).toBe(false);
    expect(isDiskFullError(undefined)).toBe(false);
  });
});

describe('fsyncDirectory', () => {
  it('fsyncs an existing directory and reports a missing one', () => {
    expect(fsyncedDirectories(() => fsyncDirectory(dir))).toEqual([dir]);
    expect(() => fsyncDirectory(path.join(dir, 'missing'))).toThrow(/ENOENT/);
  });

  it('accepts a platform that refuses to fsync a directory, but not an I/O error', () => {
    vi.spyOn(fs, 'fsyncSync').mockImplementation(() => {
      throw errnoError('EINVAL');
    });
    expect(() => fsyncDirectory(dir)).not.toThrow();
    vi.spyOn(fs, 'fsyncSync').mockImplementation(() => {
      throw errnoError('EIO');
    });
    expect(() => fsyncDirectory(dir)).toThrow(/EIO/);
  });
});

describe('durable renames', () => {
  it('fsyncs the parents of the directories it makes, and nothing when they exist', () => {
    const nested = path.join(dir, 'a', 'b');
    expect(fsyncedDirectories(() => makeDurableDirectory(nested))).toEqual([path.join(dir, 'a'), dir]);
    expect(fs.statSync(nested).isDirectory()).toBe(true);
    expect(fsyncedDirectories(() => makeDurableDirectory(nested))).toEqual([]);
  });

  it('fsyncs the release directory after the local store moves an upload into place', async () => {
    const privateDir = path.join(dir, 'private');
    const releasesDir = path.join(privateDir, 'downloads');
    fs.mkdirSync(releasesDir, { recursive: true });
    const store = createLocalObjectStore({ uploadsDir: path.join(dir, 'uploads'), privateFilesDir: privateDir });
    const temp = path.join(dir, 'upload.part');
    fs.writeFileSync(temp, 'release bytes');
    const key = releaseFileKey('a'.repeat(32));
    expect(await fsyncedDirectoriesOf(() => store.putFile(key, temp, 'release bytes'.length))).toEqual([releasesDir]);
    expect(fs.readFileSync(path.join(releasesDir, 'a'.repeat(32)), 'utf8')).toBe('release bytes');
  });

  it('fsyncs the extra files directory after the local store moves an upload into place', async () => {
    const privateDir = path.join(dir, 'private');
    fs.mkdirSync(path.join(privateDir, 'news'), { recursive: true });
    const store = createLocalObjectStore({ uploadsDir: path.join(dir, 'uploads'), privateFilesDir: privateDir });
    const temp = path.join(dir, 'upload.part');
    fs.writeFileSync(temp, 'attachment');
    const key = `private/news/${'b'.repeat(32)}`;
    expect(await fsyncedDirectoriesOf(() => store.putFile(key, temp, 'attachment'.length))).toEqual([path.join(privateDir, 'news')]);
    expect(fs.readFileSync(path.join(privateDir, 'news', 'b'.repeat(32)), 'utf8')).toBe('attachment');
    expect(fs.existsSync(temp)).toBe(false);
  });
});
