// The storage interface every stored file goes through (docs/decisions/0050-object-storage.md): the local
// directories (default) or an S3-compatible bucket. Keys are server/storage/object-store/keys.ts's.
import type { Readable } from 'node:stream';

export interface ObjectDigest {
  size: number;
  /** Lower-case hex. */
  sha256: string;
  sha512: string;
}

export interface ObjectInfo {
  size: number;
  lastModified: Date;
}

/** Inclusive byte positions, as a Range header names them. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  contentType?: string;
  /** Kept with the object in a bucket, for a CDN in front of it (the local store's server sets its own). */
  cacheControl?: string;
}

export interface ObjectStoreBase {
  /**
   * Stores a finished temp file (already fsynced, e.g. by receiveToTempFile) under `key` and takes it over:
   * the temp file is gone afterwards, whether the put succeeded or not. `size` is what was received, checked
   * against what was stored. Local: one atomic rename (today's behaviour); bucket: a (multipart) upload.
   */
  putFile(key: string, tempPath: string, size: number, options?: PutOptions): Promise<void>;
  /**
   * Stores the bytes of `source` under `key`, SHA-256 and SHA-512 computed on the way. All or nothing: a
   * source that fails half way, or a store that does, leaves no object under `key`.
   */
  putStream(key: string, source: Readable | Buffer, options?: PutOptions): Promise<ObjectDigest>;
  /** Size and date of an object, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /** The bytes of an object (or of `range` of it), read on demand; throws ObjectNotFoundError when there is none. */
  read(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Removes an object; one that is already gone is fine. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (e.g. `media/`), with its size: for the migration and the checks. */
  list(prefix: string): AsyncIterable<{ key: string; size: number }>;
}

export interface LocalObjectStore extends ObjectStoreBase {
  readonly kind: 'local';
}

export interface PresignOptions {
  /** The name the browser saves the file under (response-content-disposition). */
  filename: string;
  expiresInSeconds: number;
}

export interface S3ObjectStore extends ObjectStoreBase {
  readonly kind: 's3';
  /** A GET link the bucket honours for `expiresInSeconds`, signed by the AWS SDK (never by us). */
  presignGet(key: string, options: PresignOptions): Promise<string>;
  /** The public URL of a media key when S3_PUBLIC_URL is set, else null (the site streams it). */
  publicUrl(key: string): string | null;
  /** The marker object that says the bucket holds every file (null: none), written by the migration. */
  readMarker(): Promise<StoreMarker | null>;
  writeMarker(marker: StoreMarker): Promise<void>;
  /** Removes the marker: the bucket no longer holds every file (the files went back to the local store). */
  deleteMarker(): Promise<void>;
  /** A HEAD of the marker for /readyz: 'ok', 'missing', or throws when the bucket does not answer. */
  headMarker(): Promise<'ok' | 'missing'>;
}

export interface StoreMarker {
  complete: true;
  /** What filled the bucket: how many files, from which store, when. */
  files: number;
  from: 'local' | 's3' | 'empty';
  at: string;
}

export type ObjectStore = LocalObjectStore | S3ObjectStore;

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`no stored object ${JSON.stringify(key)}`);
  }
}
