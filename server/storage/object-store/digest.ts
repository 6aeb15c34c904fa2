// SHA-256 and SHA-512 of bytes as they pass, so no store reads a file a second time to hash it.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ObjectDigest } from './types.ts';

export function createDigester() {
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  let size = 0;
  return {
    update(chunk: Uint8Array): void {
      sha256.update(chunk);
      sha512.update(chunk);
      size += chunk.length;
    },
    digest(): ObjectDigest {
      return { size, sha256: sha256.digest('hex'), sha512: sha512.digest('hex') };
    },
  };
}

/** The chunks of a stream or a buffer, one at a time. */
export async function* chunksOf(source: Readable | Buffer): AsyncIterable<Uint8Array> {
  if (Buffer.isBuffer(source)) {
    yield source;
    return;
  }
  for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
}
