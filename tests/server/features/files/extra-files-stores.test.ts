// Attached files on both stores (issue 30; docs/decisions/0050-object-storage.md): the same upload, the same
// checks before a download (login, verification, a published post), then the bytes from the local store or
// a 302 to a presigned link of the bucket (s3rver started here), which answers ranges itself; a delete
// removes the row first, then the object; an upload cut half way leaves no object and no row.
import crypto from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listUploadedFiles } from '../../../../server/features/files/queries.ts';
import { DOWNLOAD_LINK_TYPE, type DownloadLink } from '../../../../common/download-link.ts';
import { fileForm, filesUnder, json, setupContentTest, type ContentTest } from '../../content/helpers.ts';
import { registry } from '../../../../server/ops/metrics.ts';
import { startTestBucket, type TestBucket } from '../../../helpers/s3-server.ts';
import { storedKeys } from '../../../helpers/store-contents.ts';

// A bucket of its own for every test, as every test has its own DATA_DIR.
let bucket: TestBucket;
beforeEach(async () => {
  bucket = await startTestBucket();
});
afterEach(() => bucket.close());

describe.each([
  ['local', () => ({})],
  ['s3', () => bucket.env],
] as const)('attached files on the %s store', (kind, env) => {
  let t: ContentTest;
  beforeEach(async () => {
    t = await setupContentTest({ UPLOAD_MAX_BYTES: String(4 * 1024 * 1024), ...env() });
  });
  afterEach(() => t.ctx.cleanup());

  async function uploadAttached(route: 'news' | 'tutorials', bytes: Buffer, published: boolean) {
    const admin = await t.admin();
    const uploaded = await admin.request('POST', `/api/${route}/extrafiles`, fileForm(bytes, 'Report 2026.pdf', 'application/pdf', { description: 'd' }));
    expect(uploaded.status).toBe(201);
    const { file } = await json<{ file: { id: number; sha256: string } }>(uploaded);
    const { section } = await json<{ section: { id: number } }>(await admin.request('POST', `/api/${route}/section/store`, { title: 'S', order: 0 }));
    await admin.request('POST', `/api/${route}/store`, { title: 'P', body: 'b', section_id: section.id, uploaded_file_id: file.id, published });
    return file;
  }

  /** The bytes a client ends up with: the answer's own, or those behind the bucket's link it was sent to. */
  async function bytesOf(answer: Response, range?: string): Promise<{ status: number; bytes: Buffer; disposition: string | null }> {
    if (kind === 'local') {
      expect(answer.status).toBe(200);
      return { status: 200, bytes: Buffer.from(await answer.arrayBuffer()), disposition: answer.headers.get('content-disposition') };
    }
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const location = answer.headers.get('location') ?? '';
    expect(location.startsWith(`${bucket.endpoint}/${bucket.bucket}/private/`)).toBe(true);
    const fromBucket = await fetch(location, range ? { headers: { Range: range } } : {});
    return { status: fromBucket.status, bytes: Buffer.from(await fromBucket.arrayBuffer()), disposition: fromBucket.headers.get('content-disposition') };
  }

  it('uploads into the store, and downloads after the same checks for admins and verified readers', async () => {
    const bytes = crypto.randomBytes(300_000);
    const file = await uploadAttached('tutorials', bytes, true);
    const [row] = listUploadedFiles(t.ctx.db, 'tutorials');
    expect(await storedKeys(t.ctx.storage, 'private/tutorials/')).toEqual([`private/tutorials/${row?.stored_name}`]);
    expect(file.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));

    for (const client of [await t.admin(), await t.user()]) {
      const answer = await client.request('POST', '/api/tutorials/extrafiles/download', { id: file.id });
      const got = await bytesOf(answer);
      expect(got.bytes.equals(bytes)).toBe(true);
      expect(got.disposition).toContain(`filename*=UTF-8''Report%202026.pdf`);
    }

    const anonymous = await t.anonymous();
    expect((await anonymous.request('POST', '/api/tutorials/extrafiles/download', { id: file.id })).status).toBe(401);
    const unverified = await t.unverified();
    expect((await unverified.request('POST', '/api/tutorials/extrafiles/download', { id: file.id })).status).toBe(403);
  });

  it('keeps a file of an unpublished post from readers (404), and answers 404 when the store lost it', async () => {
    const file = await uploadAttached('news', Buffer.from('draft attachment'), false);
    const user = await t.user();
    expect((await user.request('POST', '/api/news/extrafiles/download', { id: file.id })).status).toBe(404);
    const [row] = listUploadedFiles(t.ctx.db, 'news');
    await t.ctx.storage.delete(`private/news/${row?.stored_name}`);
    const admin = await t.admin();
    const missing = await admin.request('POST', '/api/news/extrafiles/download', { id: file.id });
    expect(missing.status).toBe(404);
    expect((await json(missing)).message).toBe('The file is missing on the server. Please tell the site admin.');
  });

  it('deletes the row, then the object', async () => {
    const admin = await t.admin();
    const uploaded = await admin.request('POST', '/api/news/extrafiles', fileForm('to delete', 'a.txt', 'text/plain'));
    const { file } = await json<{ file: { id: number } }>(uploaded);
    expect(await storedKeys(t.ctx.storage, 'private/news/')).toHaveLength(1);
    expect((await admin.request('DELETE', '/api/news/extrafiles', { ids: [file.id] })).status).toBe(200);
    expect(listUploadedFiles(t.ctx.db, 'news')).toEqual([]);
    await expect.poll(() => storedKeys(t.ctx.storage, 'private/news/')).toEqual([]);
  });

  it('leaves no object and no row when the upload is cut half way', async () => {
    const admin = await t.admin();
    const head = '--B\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
        else if (sent < 6) controller.enqueue(crypto.randomBytes(256 * 1024));
        else controller.error(new Error('the connection broke'));
        sent++;
      },
    });
    const answer = await Promise.resolve(
      t.ctx.app.request('/api/news/extrafiles', {
        method: 'POST',
        headers: { Cookie: admin.cookieHeader, 'X-XSRF-TOKEN': admin.xsrf ?? '', 'Content-Type': 'multipart/form-data; boundary=B' },
        body,
        duplex: 'half',
      } as RequestInit),
    ).catch(() => null);
    if (answer) expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(listUploadedFiles(t.ctx.db, 'news')).toEqual([]);
    expect(await storedKeys(t.ctx.storage, 'private/')).toEqual([]);
  });
});

describe('attached files from the bucket', () => {
  let t: ContentTest;
  beforeEach(async () => {
    t = await setupContentTest(bucket.env);
  });
  afterEach(() => t.ctx.cleanup());

  it('leave no row and no temp file when the bucket fails during the upload, and count the failure', async () => {
    const admin = await t.admin();
    const errorsBefore = await storageErrorCount('put');
    await bucket.close();
    const answer = await admin.request('POST', '/api/news/extrafiles', fileForm(crypto.randomBytes(50_000), 'a.bin', 'application/octet-stream'));
    expect(answer.status).toBe(500);
    expect(listUploadedFiles(t.ctx.db, 'news')).toEqual([]);
    expect(filesUnder(path.join(t.ctx.config.privateFilesDir, '.tmp'))).toEqual([]);
    expect(await storageErrorCount('put')).toBe(errorsBefore + 1);
    bucket = await startTestBucket();
  });

  it('give our own pages the link itself on request, and the bucket answers its ranges (resumption)', async () => {
    const admin = await t.admin();
    const bytes = crypto.randomBytes(100_000);
    const uploaded = await admin.request('POST', '/api/news/extrafiles', fileForm(bytes, 'data.bin', 'application/octet-stream'));
    const { file } = await json<{ file: { id: number } }>(uploaded);
    const answer = await admin.request('POST', '/api/news/extrafiles/download', { id: file.id }, { headers: { Accept: DOWNLOAD_LINK_TYPE } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(DOWNLOAD_LINK_TYPE);
    const link = await json<DownloadLink>(answer);
    expect(link).toMatchObject({ filename: 'data.bin', expires_in: 300 });
    const first = await fetch(link.url, { headers: { Range: 'bytes=0-49999' } });
    const rest = await fetch(link.url, { headers: { Range: 'bytes=50000-' } });
    expect([first.status, rest.status]).toEqual([206, 206]);
    expect(Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]).equals(bytes)).toBe(true);
  });
});

async function storageErrorCount(operation: string): Promise<number> {
  const metric = await registry.getSingleMetric('site_storage_errors_total')?.get();
  return metric?.values.find((value) => value.labels.operation === operation)?.value ?? 0;
}
