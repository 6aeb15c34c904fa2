// Writing an upload to a temp file: hashed while written, nothing left behind past the limit or when the
// source fails half way.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatBytes, receiveToTempFile, listTempFiles, sweepStaleTempFiles, UploadTooLargeError } from '../../../server/storage/receive-upload.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('receive-upload-');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function* chunksOf(...chunks: (Buffer | Error)[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) {
    if (chunk instanceof Error) throw chunk;
    yield chunk;
  }
}

describe('receiveToTempFile', () => {
  it('writes the bytes and returns their size and SHA-256', async () => {
    const parts = [Buffer.from('hello '), Buffer.from('world')];
    const tmpDir = path.join(dir, '.tmp');
    const received = await receiveToTempFile(chunksOf(...parts), { tmpDir, maxBytes: 1024 });
    expect(received.size).toBe(11);
    expect(received.sha256).toBe(createHash('sha256').update('hello world').digest('hex'));
    expect(fs.readFileSync(received.tempPath, 'utf8')).toBe('hello world');
    expect(path.dirname(received.tempPath)).toBe(tmpDir);
  });

  it('accepts exactly the limit and refuses one byte more, removing the partial file', async () => {
    const tmpDir = path.join(dir, '.tmp');
    await expect(receiveToTempFile(chunksOf(Buffer.alloc(600), Buffer.alloc(424)), { tmpDir, maxBytes: 1024 })).resolves.toMatchObject({ size: 1024 });
    await expect(receiveToTempFile(chunksOf(Buffer.alloc(600), Buffer.alloc(425)), { tmpDir, maxBytes: 1024 })).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(fs.readdirSync(tmpDir)).toHaveLength(1);
  });

  it('removes the partial file when the source fails', async () => {
    const tmpDir = path.join(dir, '.tmp');
    await expect(receiveToTempFile(chunksOf(Buffer.alloc(100), new Error('client went away')), { tmpDir, maxBytes: 1024 })).rejects.toThrow('client went away');
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  });

  it('says the limit in words people read', () => {
    expect(new UploadTooLargeError(2 * 1024 ** 3).message).toBe('The file is larger than the limit of 2 GiB.');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(100)).toBe('100 bytes');
    expect(formatBytes(300 * 1024 ** 2)).toBe('300 MiB');
  });
});

describe('sweepStaleTempFiles', () => {
  it('removes only old .part files', async () => {
    const old = path.join(dir, 'a.part');
    const fresh = path.join(dir, 'b.part');
    const other = path.join(dir, 'c.upload');
    for (const file of [old, fresh, other]) fs.writeFileSync(file, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    fs.utimesSync(old, twoDaysAgo, twoDaysAgo);
    fs.utimesSync(other, twoDaysAgo, twoDaysAgo);
    expect(await sweepStaleTempFiles(dir, 24 * 3600 * 1000)).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual(['b.part', 'c.upload']);
    expect(await sweepStaleTempFiles(path.join(dir, 'missing'), 1)).toBe(0);
  });

  it('lists every .part file for the start-up cleanup, however fresh, and nothing else', async () => {
    for (const name of ['a.part', 'b.part', 'c.upload']) fs.writeFileSync(path.join(dir, name), 'x');
    fs.mkdirSync(path.join(dir, 'd.part'));
    expect((await listTempFiles(dir)).sort()).toEqual([path.join(dir, 'a.part'), path.join(dir, 'b.part')]);
    expect(await listTempFiles(path.join(dir, 'missing'))).toEqual([]);
  });
});
