import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/env.ts';

describe('loadConfig', () => {
  it('works on an empty environment with the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4321);
    expect(config.siteUrl).toBe('http://localhost:4321');
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.secureCookies).toBe(false);
    expect(config.bodyTimeoutMs).toBe(30_000);
    expect(config.maxConnectionsPerClient).toBe(64);
    expect(config.shutdownTimeoutMs).toBe(30_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_S: '5' }).shutdownTimeoutMs).toBe(5_000);
  });

  it('reads WEB_WORKERS as a count, auto meaning one per core beyond the first (at most 8)', () => {
    expect(loadConfig({ WEB_WORKERS: '0' }).webWorkers).toBe(0);
    expect(loadConfig({ WEB_WORKERS: '3' }).webWorkers).toBe(3);
    const auto = loadConfig({}).webWorkers;
    expect(auto).toBe(process.platform === 'linux' ? Math.min(8, os.availableParallelism() - 1) : 0);
    expect(loadConfig({ WEB_WORKERS: 'auto' }).webWorkers).toBe(auto);
  });

  it('derives SITE_URL from PORT and marks cookies Secure for https sites', () => {
    expect(loadConfig({ PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
    expect(loadConfig({ SITE_URL: 'https://www.example.com/' }).secureCookies).toBe(true);
  });

  it('reads NOTIFY_EMAIL (lower-cased, compared as admins are) and SUPPORT_EMAIL, both optional', () => {
    expect(loadConfig({ NOTIFY_EMAIL: ' Sales@Example.com ', SUPPORT_EMAIL: 'Help@Example.com' })).toMatchObject({
      notifyEmail: 'sales@example.com',
      supportEmail: 'Help@Example.com',
    });
    expect(loadConfig({ NOTIFY_EMAIL: '', SUPPORT_EMAIL: '' })).toMatchObject({ notifyEmail: undefined, supportEmail: undefined });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SITE_URL: 'ftp://example.com' }, 'SITE_URL'],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long-enough' }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'a@example.com' }, 'ADMIN_EMAIL/ADMIN_PASSWORD'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ NOTIFY_EMAIL: 'sales at example' }, 'NOTIFY_EMAIL'],
    [{ SUPPORT_EMAIL: 'help' }, 'SUPPORT_EMAIL'],
    [{ WEB_WORKERS: '9' }, 'WEB_WORKERS'],
    [{ WEB_WORKERS: 'many' }, 'WEB_WORKERS'],
    [{ BODY_TIMEOUT_MS: '10' }, 'BODY_TIMEOUT_MS'],
    [{ MAX_CONNECTIONS_PER_CLIENT: '-1' }, 'MAX_CONNECTIONS_PER_CLIENT'],
    [{ SHUTDOWN_TIMEOUT_S: '0' }, 'SHUTDOWN_TIMEOUT_S'],
  ])('stops with a message naming the variable for %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name.replace('/', '\\/')}:`));
  });
});

describe('storage settings (docs/decisions/0050-object-storage.md)', () => {
  const bucket = { STORAGE: 's3', S3_BUCKET: 'site-files', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'secret-example' };

  it('defaults to the local directories', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
  });

  it('reads the bucket, its endpoint, region, path style and public URL', () => {
    expect(
      loadConfig({
        ...bucket,
        S3_ENDPOINT: 'https://minio.internal:9000/',
        S3_REGION: 'eu-central-1',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PUBLIC_URL: 'https://cdn.example.com/',
      }).storage,
    ).toEqual({
      kind: 's3',
      endpoint: 'https://minio.internal:9000',
      region: 'eu-central-1',
      bucket: 'site-files',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret-example',
      forcePathStyle: true,
      publicUrl: 'https://cdn.example.com',
    });
    expect(loadConfig(bucket).storage).toMatchObject({ endpoint: undefined, region: 'us-east-1', forcePathStyle: false, publicUrl: undefined });
  });

  it.each([
    [{ STORAGE: 'gcs' }, 'STORAGE'],
    [{ ...bucket, S3_BUCKET: '' }, 'S3_BUCKET'],
    [{ ...bucket, S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ ...bucket, S3_ACCESS_KEY_ID: undefined }, 'S3_ACCESS_KEY_ID'],
    [{ ...bucket, S3_SECRET_ACCESS_KEY: ' ' }, 'S3_SECRET_ACCESS_KEY'],
    [{ ...bucket, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ ...bucket, S3_PUBLIC_URL: 'ftp://cdn' }, 'S3_PUBLIC_URL'],
    [{ ...bucket, S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE'],
  ])('stops with a message naming the variable for %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}:`));
  });

  it('says a missing bucket is required with STORAGE=s3, and needs nothing of S3 otherwise', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow('S3_BUCKET: required with STORAGE=s3');
    expect(loadConfig({ S3_BUCKET: 'ignored' }).storage).toEqual({ kind: 'local' });
  });
});
