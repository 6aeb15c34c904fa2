// Large JSON answers of the API are compressed for clients that accept it; small ones, HEAD, clients that
// do not accept it and non-JSON answers are left as they are.
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { insertPost } from '../../../server/features/content/queries.ts';
import { insertSection } from '../../../server/features/content/queries.ts';
import { COMPRESS_MIN_BYTES } from '../../../server/http/compress-json.ts';
import { createTestContext } from '../../helpers/test-context.ts';

const ctx = createTestContext();
afterAll(() => ctx.cleanup());

const section = insertSection(ctx.db, 'news', { title: 'Releases', order: 1 });
for (let i = 0; i < 20; i++)
  insertPost(ctx.db, 'news', {
    section_id: section.id,
    title: `Release ${i}`,
    body: `Notes for release ${i}. `.repeat(40),
    published: true,
    display_order: i,
    user_id: null,
  });

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  ctx.app.request(path, { method, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...headers } });

describe('JSON compression', () => {
  it('sends a large answer with brotli or gzip, as accepted, and the same JSON inside', async () => {
    const plain = await get('/api/news/getPosts');
    const plainText = await plain.text();
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(plainText.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

    const br = await get('/api/news/getPosts', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('Content-Encoding')).toBe('br');
    expect(br.headers.get('Vary')).toContain('Accept-Encoding');
    expect(br.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(plainText.length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(brBody).toString('utf8'))).toEqual(JSON.parse(plainText));

    const gz = await get('/api/news/getPosts', { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(gz.headers.get('Content-Encoding')).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString('utf8'))).toEqual(JSON.parse(plainText));
  });

  it('leaves small answers, HEAD and clients without compression as they are', async () => {
    const small = await get('/api/user', { 'Accept-Encoding': 'br' });
    expect(small.status).toBe(401);
    expect(small.headers.get('Content-Encoding')).toBeNull();
    expect(small.headers.get('Vary')).toContain('Accept-Encoding');
    expect(((await small.json()) as { message: string }).message).toBeTruthy();

    const head = await get('/api/news/getPosts', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers.get('Content-Encoding')).toBeNull();

    const identity = await get('/api/news/getPosts', { 'Accept-Encoding': 'identity' });
    expect(identity.headers.get('Content-Encoding')).toBeNull();
  });
});
