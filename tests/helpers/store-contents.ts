// Reading what a store holds, for the tests that run on both stores (docs/decisions/0050-object-storage.md).
import type { ObjectStore } from '../../server/storage/object-store/index.ts';

/** Every key under `prefix`, sorted. */
export async function storedKeys(storage: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of storage.list(prefix)) keys.push(key);
  return keys.sort();
}

/** The whole of a stream, as the store's read() answers it. */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
