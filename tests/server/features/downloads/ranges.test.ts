// Resumable downloads (issue 6 item 3) and the download count (issue 25 item 5): the right bytes for each
// range form, 416 outside the file, If-Range against a changed file, the naming headers, and which answers
// count: a download counts when it starts, once per user, file and day, so its resumption is the same one.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { releaseDownloads } from '../../../../server/db/schema.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { createReleaseDirect, patternBytes, sha256Hex } from '../../../helpers/downloads.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
let user: LoggedInClient;
let id: number;
const content = patternBytes(1_000_003, 11);
const name = 'Inspector 3.2 – Setup "x64".exe';

beforeAll(async () => {
  ctx = createTestContext();
  await createUser(ctx, { email: 'user@example.com' });
  user = await login(ctx.app, 'user@example.com');
  id = createReleaseDirect(ctx, { file: { name, content } }).id;
});
afterAll(() => ctx.cleanup());
beforeEach(() => {
  ctx.db.delete(releaseDownloads).run();
});

const fileUrl = () => `/api/downloads/file/${id}`;
const logged = () => ctx.db.select().from(releaseDownloads).all();

async function get(headers: Record<string, string> = {}) {
  const response = await user.request('GET', fileUrl(), undefined, { headers });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('whole file', () => {
  it('sends the bytes with length, type, validators and the file name in both headers', async () => {
    const { response, body } = await get();
    expect(response.status).toBe(200);
    expect(body.equals(content)).toBe(true);
    expect(sha256Hex(body)).toBe(sha256Hex(content));
    const headers = Object.fromEntries(response.headers);
    expect(headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': String(content.length),
      'accept-ranges': 'bytes',
      etag: `"${sha256Hex(content)}"`,
      'cache-control': 'private, no-cache',
      'content-disposition': `attachment; filename="Inspector 3.2 _ Setup _x64_.exe"; filename*=UTF-8''Inspector%203.2%20%E2%80%93%20Setup%20%22x64%22.exe`,
      'repr-digest': `sha-256=:${Buffer.from(sha256Hex(content), 'hex').toString('base64')}:`,
    });
    expect(decodeURIComponent(headers.filename ?? '')).toBe(name);
    expect(headers['content-range']).toBeUndefined();
  });

  it('answers the same through POST /download', async () => {
    const response = await user.request('POST', '/api/downloads/download', { id }, { headers: { Range: 'bytes=10-19' } });
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(10, 20))).toBe(true);
  });

  it('answers HEAD with the headers only, and does not count it', async () => {
    const response = await user.request('HEAD', fileUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(content.length));
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    expect(logged()).toEqual([]);
  });
});

describe('ranges', () => {
  it('answers bytes=a-b with 206, Content-Range and exactly those bytes', async () => {
    const { response, body } = await get({ Range: 'bytes=100-199' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-199/${content.length}`);
    expect(response.headers.get('content-length')).toBe('100');
    expect(body.equals(content.subarray(100, 200))).toBe(true);
  });

  it('answers a suffix range with the last bytes', async () => {
    const { response, body } = await get({ Range: 'bytes=-500' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${content.length - 500}-${content.length - 1}/${content.length}`);
    expect(body.equals(content.subarray(content.length - 500))).toBe(true);
  });

  it('resumes a cut download (bytes=N-): both halves make the file', async () => {
    const cut = 654_321;
    const first = await get({ Range: `bytes=0-${cut - 1}` });
    const rest = await get({ Range: `bytes=${cut}-` });
    expect(rest.response.status).toBe(206);
    expect(Buffer.concat([first.body, rest.body]).equals(content)).toBe(true);
  });

  it('answers 416 with the size for a range outside the file', async () => {
    const { response, body } = await get({ Range: `bytes=${content.length}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${content.length}`);
    expect(JSON.parse(body.toString())).toEqual({ message: 'The requested range lies outside the file.' });
    expect(logged()).toEqual([]);
  });

  it('sends the whole file when If-Range names another version, the range when it names this one', async () => {
    const stale = await get({ Range: 'bytes=0-9', 'If-Range': '"0000"' });
    expect(stale.response.status).toBe(200);
    expect(stale.body.length).toBe(content.length);
    const fresh = await get({ Range: 'bytes=0-9', 'If-Range': `"${sha256Hex(content)}"` });
    expect(fresh.response.status).toBe(206);
    expect(fresh.body.equals(content.subarray(0, 10))).toBe(true);
  });

  it('ignores a multi-range or backwards (invalid) range and sends the whole file', async () => {
    for (const range of ['bytes=0-1,5-6', 'bytes=5-3']) {
      const { response, body } = await get({ Range: range });
      expect(response.status, range).toBe(200);
      expect(body.equals(content), range).toBe(true);
    }
  });
});

describe('download count', () => {
  it('counts a download when it starts, with user, file, platform and day', async () => {
    const response = await user.request('GET', fileUrl());
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    const fileId = ctx.db.select().from(releaseDownloads).all()[0]?.release_file_id;
    expect(logged()).toEqual([
      {
        id: expect.any(Number),
        download_item_id: id,
        release_file_id: fileId,
        platform: 'any',
        downloader: `user:${user.user.id}`,
        user_id: user.user.id,
        license_id: null,
        day: new Date().toISOString().slice(0, 10),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(fileId).toEqual(expect.any(Number));
  });

  it('counts a download cut short and then resumed once (the same user, file and day)', async () => {
    await get({ Range: 'bytes=0-99' });
    expect(logged()).toHaveLength(1);
    await get({ Range: 'bytes=100-' });
    await get();
    expect(logged()).toHaveLength(1);
  });

  it('counts another user separately', async () => {
    await get();
    await createUser(ctx, { email: 'other@example.com' });
    const other = await login(ctx.app, 'other@example.com');
    await (await other.request('GET', fileUrl())).arrayBuffer();
    expect(logged().map((row) => row.user_id)).toEqual([user.user.id, other.user.id]);
  });
});
