// `npm run backup` with the files in a bucket (docs/decisions/0050-object-storage.md): the backup still holds
// the database and DATA_DIR, and says in its manifest what it does not hold: the bucket's objects.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupData, bucketNotice } from '../../../scripts/backup.ts';
import { openDatabase } from '../../../server/db/client.ts';
import { loadConfig } from '../../../server/env.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('npm run backup with STORAGE=s3', () => {
  it('names the bucket it does not hold in the manifest', async () => {
    const dataDir = makeTempDir('backup-bucket-');
    const target = makeTempDir('backup-bucket-target-');
    dirs.push(dataDir, target);
    const config = loadConfig({ DATA_DIR: dataDir, STORAGE: 's3', S3_BUCKET: 'site-files', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    openDatabase(config.databaseFile).$client.close();
    const { manifest } = await backupData(config, path.join(target, 'b'));
    expect(manifest.bucket).toMatchObject({ name: 'site-files', endpoint: 'AWS S3' });
    expect(manifest.bucket?.note).toContain('this backup does not hold them');
    expect(JSON.parse(fs.readFileSync(path.join(target, 'b', 'manifest.json'), 'utf8')).bucket.name).toBe('site-files');
  });

  it('says nothing of a bucket with the local store', () => {
    expect(bucketNotice(loadConfig({}))).toBeUndefined();
  });
});
