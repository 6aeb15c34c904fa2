// The bucket for the browser tests' STORAGE=s3 pass (E2E_STORAGE=s3, playwright.config.ts): s3rver on
// E2E_S3_PORT with a temp directory, until Playwright stops it. docs/decisions/0050-object-storage.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { E2E_S3_BUCKET, E2E_S3_PORT } from './env.ts';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'site-e2e-s3-'));
const server = new S3rver({ address: '127.0.0.1', port: E2E_S3_PORT, silent: true, directory, configureBuckets: [{ name: E2E_S3_BUCKET, configs: [] }] });
await server.run();
console.log(`s3rver on http://127.0.0.1:${E2E_S3_PORT}, bucket ${E2E_S3_BUCKET}`);
const stop = () => {
  void server.close().finally(() => {
    fs.rmSync(directory, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
