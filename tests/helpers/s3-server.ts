// An S3-compatible server for the tests (docs/decisions/0050-object-storage.md): s3rver, in this process, over
// HTTP on a free port, its buckets in a temp directory. It speaks the object API, multipart uploads, ranges
// and presigned-link expiry, but checks no signature: what a real store enforces beyond that is listed in
// the decision record, and the presigned links' form is checked against the SDK's documented one instead.
import fs from 'node:fs';
import S3rver from 's3rver';
import { makeTempDir } from './test-context.ts';

/** s3rver's fixed credentials. */
export const S3RVER_KEY = 'S3RVER';

export interface TestBucket {
  endpoint: string;
  bucket: string;
  /** The settings that point the server at this bucket (STORAGE=s3 and the S3_* variables). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestBucket(bucket = 'site-test-bucket'): Promise<TestBucket> {
  const directory = makeTempDir('s3rver-');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'eu-central-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
