// The storage interface on both stores (docs/decisions/0050-object-storage.md): the same calls, the same
// answers, against the local directories and against an S3-compatible server started here (s3rver), never
// a mocked client. Then what only the bucket does: presigned links, their ranges and expiry, their form.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/env.ts';
import { createObjectStore, ObjectNotFoundError, type ObjectStore, type S3ObjectStore } from '../../../server/storage/object-store/index.ts';
import { registry } from '../../../server/ops/metrics.ts';
import { makeTempDir } from '../../helpers/test-context.ts';
import { startTestBucket, type TestBucket } from '../../helpers/s3-server.ts';
import { readAll, storedKeys } from '../../helpers/store-contents.ts';

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(() => bucket.close());

let dataDir: string;
beforeEach(() => {
  dataDir = makeTempDir('object-store-');
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const stores: [string, () => Record<string, string>][] = [
  ['local', () => ({})],
  ['s3', () => bucket.env],
];

function storeFor(env: Record<string, string>): ObjectStore {
  return createObjectStore(loadConfig({ DATA_DIR: dataDir, ...env }));
}

const hex = (algorithm: string, bytes: Buffer) => crypto.createHash(algorithm).update(bytes).digest('hex');
const unique = () => crypto.randomBytes(16).toString('hex');

describe.each(stores)('the %s store', (kind, env) => {
  it('puts a stream with its SHA-256 and SHA-512, heads it, reads it whole and by range, lists and deletes it', async () => {
    const store = storeFor(env());
    expect(store.kind).toBe(kind);
    const bytes = crypto.randomBytes(300_000);
    const key = `private/news/${unique()}`;
    const digest = await store.putStream(key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(digest).toEqual({ size: bytes.length, sha256: hex('sha256', bytes), sha512: hex('sha512', bytes) });
    expect((await store.head(key))?.size).toBe(bytes.length);
    expect((await readAll(await store.read(key))).equals(bytes)).toBe(true);
    expect((await readAll(await store.read(key, { start: 1000, end: 1999 }))).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect(await storedKeys(store, 'private/news/')).toContain(key);
    await store.delete(key);
    expect(await store.head(key)).toBeNull();
    await expect(store.read(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    // Deleting what is gone is fine.
    await store.delete(key);
  });

  it('takes over a finished temp file, leaving no temp file behind', async () => {
    const store = storeFor(env());
    const temp = path.join(dataDir, 'upload.part');
    fs.writeFileSync(temp, 'attached bytes');
    const key = `private/tutorials/${unique()}`;
    await store.putFile(key, temp, 'attached bytes'.length, { contentType: 'application/pdf' });
    expect(fs.existsSync(temp)).toBe(false);
    expect((await readAll(await store.read(key))).toString()).toBe('attached bytes');
  });

  it('leaves no object when the source fails half way, even past the first multipart part', async () => {
    const store = storeFor(env());
    const key = `private/downloads/${unique()}`;
    async function* cut() {
      // 20 MiB: past two 8 MiB parts, so the bucket had a multipart upload going.
      for (let sent = 0; sent < 20; sent++) yield crypto.randomBytes(1024 * 1024);
      throw new Error('the client went away');
    }
    await expect(store.putStream(key, Readable.from(cut()))).rejects.toThrow();
    expect(await store.head(key)).toBeNull();
    expect(await storedKeys(store, 'private/downloads/')).not.toContain(key);
    // Nothing hidden either: the local store's temp names are gone too.
    if (kind === 'local')
      expect(fs.existsSync(path.join(dataDir, 'private', 'downloads')) ? fs.readdirSync(path.join(dataDir, 'private', 'downloads')) : []).toEqual([]);
  });

  it('refuses a key we would never make, before touching anything', async () => {
    const store = storeFor(env());
    for (const key of ['../etc/passwd', 'media/../private/x', 'private/.tmp/x', 'other/news/x', 'private']) {
      await expect(store.putStream(key, Buffer.from('x')), key).rejects.toThrow(/not an object key/);
    }
  });
});

describe('local store layout', () => {
  it('keeps the directories of before: media under uploads/, gated files under private/ with private modes', async () => {
    const store = storeFor({});
    await store.putStream('media/news/abc-thumb.webp', Buffer.from('img'));
    await store.putStream('private/news/0123', Buffer.from('file'));
    expect(fs.readFileSync(path.join(dataDir, 'uploads', 'news', 'abc-thumb.webp'), 'utf8')).toBe('img');
    expect(fs.statSync(path.join(dataDir, 'uploads', 'news', 'abc-thumb.webp')).mode & 0o777).toBe(0o644);
    expect(fs.statSync(path.join(dataDir, 'private', 'news', '0123')).mode & 0o777).toBe(0o600);
    // Temp files and the uploads in progress are never listed as objects.
    fs.mkdirSync(path.join(dataDir, 'private', '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'private', '.tmp', 'x.part'), 'partial');
    expect(await storedKeys(store, '')).toEqual(['media/news/abc-thumb.webp', 'private/news/0123']);
  });
});

describe('presigned links of the bucket', () => {
  const s3 = () => storeFor(bucket.env) as S3ObjectStore;

  it('serve ranges from the bucket with the file name in Content-Disposition, and count as issued', async () => {
    const store = s3();
    const bytes = crypto.randomBytes(50_000);
    const key = `private/news/${unique()}`;
    await store.putStream(key, bytes);
    const before = await presignedCount();
    const url = await store.presignGet(key, { filename: 'Übung "1".pdf', expiresInSeconds: 60 });
    expect(await presignedCount()).toBe(before + 1);
    const ranged = await fetch(url, { headers: { Range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    expect(ranged.headers.get('content-disposition')).toBe(`attachment; filename="_bung _1_.pdf"; filename*=UTF-8''%C3%9Cbung%20%221%22.pdf`);
    // Resumption: the rest from where the first part stopped.
    const rest = await fetch(url, { headers: { Range: 'bytes=200-' } });
    expect(Buffer.from(await rest.arrayBuffer()).equals(bytes.subarray(200))).toBe(true);
  });

  it('are refused by the bucket once expired (403)', async () => {
    const store = s3();
    const key = `private/news/${unique()}`;
    await store.putStream(key, Buffer.from('soon gone'));
    // X-Amz-Date is in whole seconds and the link ends that many seconds after it, so a link of 2 s has 1 to 2 s
    // left when it is made (one of 1 s could be over before its first use). Then wait for the end it names.
    const url = await store.presignGet(key, { filename: 'a.txt', expiresInSeconds: 2 });
    expect((await fetch(url)).status).toBe(200);
    const query = new URL(url).searchParams;
    const signedAt = Date.parse((query.get('X-Amz-Date') ?? '').replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    const endsAt = signedAt + Number(query.get('X-Amz-Expires')) * 1000;
    expect(endsAt - Date.now()).toBeLessThanOrEqual(2_000);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now()) + 200));
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });

  it('have the form AWS documents for SigV4 query signing (s3rver checks no signature, so this test does)', async () => {
    const store = s3();
    const key = `private/documentation/${unique()}`;
    const url = new URL(await store.presignGet(key, { filename: 'manual.pdf', expiresInSeconds: 300 }));
    expect(`${url.origin}${url.pathname}`).toBe(`${bucket.endpoint}/${bucket.bucket}/${key}`);
    const query = url.searchParams;
    expect(query.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    // <access key>/<yyyymmdd>/<region>/s3/aws4_request, dated today (UTC) like X-Amz-Date.
    const date = query.get('X-Amz-Date') ?? '';
    expect(date).toMatch(/^\d{8}T\d{6}Z$/);
    expect(date.slice(0, 8)).toBe(new Date().toISOString().slice(0, 10).replace(/-/g, ''));
    expect(query.get('X-Amz-Credential')).toBe(`S3RVER/${date.slice(0, 8)}/eu-central-1/s3/aws4_request`);
    expect(query.get('X-Amz-Expires')).toBe('300');
    expect(query.get('X-Amz-SignedHeaders')).toBe('host');
    expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(query.get('response-content-disposition')).toBe(`attachment; filename="manual.pdf"; filename*=UTF-8''manual.pdf`);
    // Two links for the same object differ only if something signed differs: the signature covers the name.
    const other = new URL(await store.presignGet(key, { filename: 'other.pdf', expiresInSeconds: 300 }));
    if (other.searchParams.get('X-Amz-Date') === date) expect(other.searchParams.get('X-Amz-Signature')).not.toBe(query.get('X-Amz-Signature'));
  });

  it('give no public URL for gated files, and one under S3_PUBLIC_URL for media only when it is set', () => {
    expect(s3().publicUrl('media/news/abc-thumb.webp')).toBeNull();
    const cdn = storeFor({ ...bucket.env, S3_PUBLIC_URL: 'https://cdn.example.com/' }) as S3ObjectStore;
    expect(cdn.publicUrl('media/news/abc-thumb.webp')).toBe('https://cdn.example.com/media/news/abc-thumb.webp');
    expect(cdn.publicUrl('private/news/abc')).toBeNull();
  });
});

async function presignedCount(): Promise<number> {
  const metric = await registry.getSingleMetric('site_storage_presigned_links_total')?.get();
  return metric?.values[0]?.value ?? 0;
}
