// A web ReadableStream over a byte range of an open file, read on demand. Compared with
// Readable.toWeb(fs.createReadStream()), reading only when the consumer pulls (highWaterMark 0) keeps at
// most one chunk in memory per download, and closes the file as soon as the range is sent or the consumer
// goes away. (A download is counted when it starts, not here: issue 25, docs/updates.md#numbers.)
import type { FileHandle } from 'node:fs/promises';

const CHUNK_BYTES = 256 * 1024;

export interface FileRangeStreamOptions {
  /** Called when reading fails (the stream is errored and the file closed). */
  onError?: (error: unknown) => void;
}

/** Streams bytes start..end (inclusive) of `handle`, closing the handle at the end, on cancel and on error. */
export function fileRangeStream(handle: FileHandle, start: number, end: number, options: FileRangeStreamOptions = {}): ReadableStream<Uint8Array> {
  let position = start;
  const stop = end + 1;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (position >= stop) {
          // Only reached when the consumer asks for more after the last chunk: the whole range went out.
          await close();
          controller.close();
          return;
        }
        try {
          const length = Math.min(CHUNK_BYTES, stop - position);
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          if (bytesRead === 0) throw new Error(`file ended at byte ${position}, before byte ${end}`);
          position += bytesRead;
          controller.enqueue(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
        } catch (error) {
          await close();
          options.onError?.(error);
          controller.error(error);
        }
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
}
