// The face of the storage interface (docs/decisions/0050-object-storage.md): one store per process, chosen
// by STORAGE, and the start's check that a bucket holds every file before the site uses it.
import type { Config } from '../../env.ts';
import { createLocalObjectStore } from './local.ts';
import { createS3ObjectStore } from './s3.ts';
import type { ObjectStore } from './types.ts';

export { attachedFileKey, isObjectKey, localPathOf, mediaKeyToUrl, mediaUrlToKey, releaseFileKey, STORE_AREAS } from './keys.ts';
export { createLocalObjectStore } from './local.ts';
export { createS3ObjectStore, STORE_MARKER_KEY } from './s3.ts';
export { ObjectNotFoundError, type ByteRange, type ObjectDigest, type ObjectInfo, type ObjectStore, type S3ObjectStore, type StoreMarker } from './types.ts';

/** How long a presigned download link works: long enough to start (and resume soon after), short enough not to be shared. */
export const PRESIGNED_LINK_SECONDS = 300;

export function createObjectStore(config: Pick<Config, 'storage' | 'uploadsDir' | 'privateFilesDir'>): ObjectStore {
  return config.storage.kind === 's3' ? createS3ObjectStore(config.storage) : createLocalObjectStore(config);
}

export class StoreNotReadyError extends Error {}

/**
 * With STORAGE=s3 the bucket must say it holds every file (its marker, written by `npm run storage --
 * migrate --to s3` once all were copied and verified) before the site serves from it: otherwise pages
 * would name images and posts offer files the bucket lacks. A site with no stored file yet needs no
 * migration: its empty bucket is marked complete here. Throws StoreNotReadyError with what to run.
 */
export async function ensureStoreComplete(config: Pick<Config, 'storage' | 'uploadsDir' | 'privateFilesDir'>, store: ObjectStore): Promise<void> {
  if (store.kind !== 's3') return;
  if (await store.readMarker()) return;
  const local = createLocalObjectStore(config);
  for await (const file of local.list('')) {
    throw new StoreNotReadyError(
      `STORAGE=s3, but the bucket has not been filled: files such as ${file.key} are still only in DATA_DIR. ` +
        'Run `npm run storage -- migrate --to s3` (README, Production), or set STORAGE=local.',
    );
  }
  await store.writeMarker({ complete: true, files: 0, from: 'empty', at: new Date().toISOString() });
}
