// The on-demand file stream: right bytes for a range, completion reported only once the last byte was
// taken, the file closed however the stream ends.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileRangeStream } from '../../../server/storage/file-range-stream.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

let dir: string;
let file: string;
const content = Buffer.from(Array.from({ length: 600_000 }, (_, i) => i % 251));

beforeEach(() => {
  dir = makeTempDir('range-stream-');
  file = path.join(dir, 'f.bin');
  fs.writeFileSync(file, content);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe('fileRangeStream', () => {
  it('streams the whole file and closes it', async () => {
    const handle = await fs.promises.open(file, 'r');
    const bytes = await readAll(fileRangeStream(handle, 0, content.length - 1));
    expect(bytes.equals(content)).toBe(true);
    expect(handle.fd).toBe(-1);
  });

  it('streams an inner range', async () => {
    const handle = await fs.promises.open(file, 'r');
    const bytes = await readAll(fileRangeStream(handle, 300_000, 300_009));
    expect(bytes.equals(content.subarray(300_000, 300_010))).toBe(true);
  });

  it('closes the file when the consumer cancels', async () => {
    const handle = await fs.promises.open(file, 'r');
    const reader = fileRangeStream(handle, 0, content.length - 1).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBeGreaterThan(0);
    await reader.cancel();
    expect(handle.fd).toBe(-1);
  });

  it('errors when the file is shorter than the range it promised', async () => {
    let failed: unknown;
    const handle = await fs.promises.open(file, 'r');
    const stream = fileRangeStream(handle, content.length - 10, content.length + 10, { onError: (error) => (failed = error) });
    await expect(readAll(stream)).rejects.toThrow(/file ended/);
    expect(failed).toBeInstanceOf(Error);
    expect(handle.fd).toBe(-1);
  });
});
