// Large JSON answers of the API are compressed for clients that accept it; small ones, HEAD, clients that
// do not accept it and non-JSON answers are left as they are.
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { insertPost } from '../../../server/features/content/queries.ts';
import { insertSection } from '../../../server/features/content/queries.ts';
import { COMPRESS_MIN_BYTES, compressJson } from '../../../server/http/compress-json.ts';
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
    // Small answers are the same whatever the client accepts, so they vary by nothing.
    expect(small.headers.get('Vary')).toBeNull();
    expect(((await small.json()) as { message: string }).message).toBeTruthy();

    const head = await get('/api/news/getPosts', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers.get('Content-Encoding')).toBeNull();

    const identity = await get('/api/news/getPosts', { 'Accept-Encoding': 'identity' });
    expect(identity.headers.get('Content-Encoding')).toBeNull();
  });

  it("answers a small c.json() answer unread, the handler's own, and makes any other JSON answer again whole", async () => {
    const made: Record<string, Response> = {};
    const app = new Hono()
      .use('*', compressJson)
      .get('/json', (c) => (made.json = c.json({ valid: true, file: 'x'.repeat(1500) })))
      .get('/body', (c) => (made.body = c.body(JSON.stringify({ valid: true }), 200, { 'Content-Type': 'application/json' })))
      .get('/large', (c) => (made.large = c.json({ file: 'x'.repeat(COMPRESS_MIN_BYTES) })));
    const ask = (path: string) => app.request(path, { headers: { 'Accept-Encoding': 'gzip, br' } });

    const json = await ask('/json');
    // Not read back to learn its size (which makes the Node adapter build and stream a whole fetch Response).
    expect(json).toBe(made.json);
    expect(json.bodyUsed).toBe(false);
    expect(((await json.json()) as { file: string }).file).toHaveLength(1500);

    const body = await ask('/body');
    expect(body).not.toBe(made.body);
    expect(await body.json()).toEqual({ valid: true });
    expect(body.headers.get('Content-Type')).toBe('application/json');

    const large = await ask('/large');
    expect(large.headers.get('Content-Encoding')).toBe('br');
    expect(large.headers.get('Vary')).toBe('Accept-Encoding');
    expect(JSON.parse(zlib.brotliDecompressSync(Buffer.from(await large.arrayBuffer())).toString('utf8'))).toEqual({ file: 'x'.repeat(COMPRESS_MIN_BYTES) });
  });
});
