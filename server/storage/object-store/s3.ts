// The bucket store: any S3-compatible object storage through the AWS SDK (docs/decisions/0050-object-storage.md).
// Uploads go through @aws-sdk/lib-storage's Upload: one PutObject below the part size, else a multipart
// upload of PART_BYTES parts with at most QUEUE_SIZE in flight (so memory stays flat, however large the
// file), aborted by the SDK when anything fails, so no object appears under the key and no parts are kept
// (the lifecycle rule in docs/scaling.md sweeps what an abort that itself failed leaves). Links are
// presigned by the SDK; this file never signs anything itself.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../env.ts';
import { loadAwsSdk, onFirstUse } from '../../lazy-libraries.ts';
import { attachmentDisposition } from '../../http/byte-range.ts';
import { presignedLinks, storageErrors } from '../../ops/metrics.ts';
import { chunksOf, createDigester } from './digest.ts';
import { splitKey } from './keys.ts';
import { ObjectNotFoundError, type ByteRange, type ObjectDigest, type ObjectInfo, type PutOptions, type S3ObjectStore, type StoreMarker } from './types.ts';

/** S3's smallest part but the last; 4 in flight keep at most 32 MiB of a file in memory. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

/** The object that says the bucket holds every file (written by the migration, HEADed by /readyz). */
export const STORE_MARKER_KEY = 'site-storage-complete.json';

export type S3Settings = Extract<StorageConfig, { kind: 's3' }>;

type AwsSdk = Awaited<ReturnType<typeof loadAwsSdk>>;

export function createS3ObjectStore(settings: S3Settings): S3ObjectStore {
  // The SDK is loaded, and the client made, at the store's first call (server/lazy-libraries.ts).
  const connect = onFirstUse(async (): Promise<{ sdk: AwsSdk; client: S3Client }> => {
    const sdk = await loadAwsSdk();
    const client = new sdk.S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where the API requires them: S3-compatible stores differ in the newer flexible
      // checksums, and our own SHA-256/SHA-512 are computed on the way anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { sdk, client };
  });
  const Bucket = settings.bucket;

  /** Counts a failed bucket call by operation (a missing object is an answer, not a failure). */
  async function counted<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) storageErrors.inc({ operation });
      throw error;
    }
  }

  async function upload(key: string, source: Readable | Buffer, options: PutOptions = {}): Promise<ObjectDigest> {
    splitKey(key);
    const { sdk, client } = await connect();
    const digester = createDigester();
    async function* hashed() {
      for await (const chunk of chunksOf(source)) {
        digester.update(chunk);
        yield chunk;
      }
    }
    const body = Readable.from(hashed());
    const transfer = new sdk.Upload({
      client,
      params: { Bucket, Key: key, Body: body, ContentType: options.contentType ?? 'application/octet-stream', CacheControl: options.cacheControl },
      partSize: PART_BYTES,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await transfer.done();
    } catch (error) {
      body.destroy();
      if (!Buffer.isBuffer(source)) source.destroy();
      throw error;
    }
    return digester.digest();
  }

  return {
    kind: 's3',

    putFile: (key, tempPath, size, options) =>
      counted('put', async () => {
        try {
          const stored = await upload(key, fs.createReadStream(tempPath), options);
          if (stored.size !== size) {
            const { sdk, client } = await connect();
            await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
            throw new Error(`the temp file held ${stored.size} bytes, ${size} were received`);
          }
        } finally {
          await fs.promises.rm(tempPath, { force: true });
        }
      }),

    putStream: (key, source, options) => counted('put', () => upload(key, source, options)),

    head: (key) =>
      counted('head', async (): Promise<ObjectInfo | null> => {
        const { sdk, client } = await connect();
        try {
          const answer = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
          return { size: answer.ContentLength ?? 0, lastModified: answer.LastModified ?? new Date(0) };
        } catch (error) {
          if (isNotFound(sdk, error)) return null;
          throw error;
        }
      }),

    read: (key, range?: ByteRange) =>
      counted('read', async () => {
        const { sdk, client } = await connect();
        try {
          const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
          if (!answer.Body) throw new Error(`the bucket answered no body for ${key}`);
          return answer.Body.transformToWebStream() as ReadableStream<Uint8Array>;
        } catch (error) {
          if (isNotFound(sdk, error)) throw new ObjectNotFoundError(key);
          throw error;
        }
      }),

    delete: (key) =>
      counted('delete', async () => {
        splitKey(key);
        const { sdk, client } = await connect();
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
      }),

    async *list(prefix) {
      const { sdk, client } = await counted('list', connect);
      let token: string | undefined;
      do {
        const page = await counted('list', () => client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token })));
        for (const item of page.Contents ?? []) if (item.Key && item.Key !== STORE_MARKER_KEY) yield { key: item.Key, size: item.Size ?? 0 };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    presignGet: (key, options) =>
      counted('presign', async () => {
        splitKey(key);
        const { sdk, client } = await connect();
        const command = new sdk.GetObjectCommand({ Bucket, Key: key, ResponseContentDisposition: attachmentDisposition(options.filename) });
        const url = await sdk.getSignedUrl(client, command, { expiresIn: options.expiresInSeconds });
        presignedLinks.inc();
        return url;
      }),

    publicUrl: (key) => {
      if (!settings.publicUrl || splitKey(key).area !== 'media') return null;
      return `${settings.publicUrl}/${key}`;
    },

    readMarker: () =>
      counted('marker', async () => {
        const { sdk, client } = await connect();
        try {
          const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: STORE_MARKER_KEY }));
          return JSON.parse((await answer.Body?.transformToString()) ?? 'null') as StoreMarker | null;
        } catch (error) {
          if (isNotFound(sdk, error)) return null;
          throw error;
        }
      }),

    writeMarker: (marker) =>
      counted('marker', async () => {
        const { sdk, client } = await connect();
        await client.send(new sdk.PutObjectCommand({ Bucket, Key: STORE_MARKER_KEY, Body: JSON.stringify(marker), ContentType: 'application/json' }));
      }),

    deleteMarker: () =>
      counted('marker', async () => {
        const { sdk, client } = await connect();
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: STORE_MARKER_KEY }));
      }),

    headMarker: () =>
      counted('marker', async () => {
        const { sdk, client } = await connect();
        try {
          await client.send(new sdk.HeadObjectCommand({ Bucket, Key: STORE_MARKER_KEY }));
          return 'ok' as const;
        } catch (error) {
          if (isNotFound(sdk, error)) return 'missing' as const;
          throw error;
        }
      }),
  };
}

function isNotFound(sdk: AwsSdk, error: unknown): boolean {
  if (!(error instanceof sdk.S3ServiceException)) return false;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}
