// Uploaded images on both stores (issue 30; docs/decisions/0050-object-storage.md): the variants are objects
// under media/<route>/ of the store, /media/ answers them (from the disk, or streamed from the bucket with
// the same Range answers), a delete removes them after the publish; with S3_PUBLIC_URL /media/ redirects
// there and the published pages name the images there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../../server/server.ts';
import { exportSnapshot } from '../../../../server/publish/export-snapshot.ts';
import { fileForm, json, makePng, setupContentTest, type ContentTest } from '../../content/helpers.ts';
import { listen, rawRequest } from '../../../helpers/raw-http.ts';
import { startTestBucket, type TestBucket } from '../../../helpers/s3-server.ts';
import { storedKeys, readAll } from '../../../helpers/store-contents.ts';

let bucket: TestBucket;
beforeEach(async () => {
  bucket = await startTestBucket();
});
afterEach(() => bucket.close());

interface ImageAnswer {
  id: number;
  image_url: Record<string, string>;
}

describe.each([
  ['local', () => ({})],
  ['s3', () => bucket.env],
] as const)('images on the %s store', (_kind, env) => {
  let t: ContentTest;
  beforeEach(async () => {
    t = await setupContentTest(env());
  });
  afterEach(() => t.ctx.cleanup());

  it('stores every variant as an object, serves it at /media/ with ranges, replaces it, and removes it after a delete', async () => {
    const admin = await t.admin();
    const uploaded = await admin.request('POST', '/api/news/images', fileForm(await makePng(900, 600), 'photo.png', 'image/png', { title: 'Photo' }));
    expect(uploaded.status).toBe(201);
    const { image } = await json<{ image: ImageAnswer }>(uploaded);
    const urls = Object.values(image.image_url).sort();
    expect(urls).toHaveLength(4);
    expect(await storedKeys(t.ctx.storage, 'media/news/')).toEqual(urls.map((url) => url.slice(1)));

    const server = await listen(createHttpServer({ app: t.ctx.app, getSite: () => null, mediaDir: t.ctx.config.uploadsDir, storage: t.ctx.storage }));
    try {
      const thumb = image.image_url.thumb as string;
      const stored = await readAll(await t.ctx.storage.read(thumb.slice(1)));
      const whole = await rawRequest(server.port, thumb);
      expect(whole.status).toBe(200);
      expect(whole.headers['content-type']).toBe('image/webp');
      expect(whole.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(whole.body.equals(stored)).toBe(true);
      const ranged = await rawRequest(server.port, thumb, { headers: { Range: 'bytes=0-9' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 0-9/${stored.length}`);
      expect(ranged.body.equals(stored.subarray(0, 10))).toBe(true);
      const revalidated = await rawRequest(server.port, thumb, { headers: { 'If-None-Match': String(whole.headers.etag) } });
      expect(revalidated.status).toBe(304);
      expect((await rawRequest(server.port, '/media/news/0123456789abcdef-thumb.webp')).status).toBe(404);
    } finally {
      await server.close();
    }

    // Replacing the file: new variants stored, the old ones removed after the publish.
    const replaced = await admin.request('POST', `/api/news/image/update-image/${image.id}`, fileForm(await makePng(700, 500), 'new.png', 'image/png'));
    expect(replaced.status).toBe(200);
    const { image: after } = await json<{ image: ImageAnswer }>(replaced);
    const newUrls = Object.values(after.image_url).sort();
    expect(newUrls).not.toEqual(urls);
    await expect.poll(() => storedKeys(t.ctx.storage, 'media/news/')).toEqual(newUrls.map((url) => url.slice(1)));

    expect((await admin.request('DELETE', `/api/news/images/${image.id}`)).status).toBe(200);
    await expect.poll(() => storedKeys(t.ctx.storage, 'media/news/')).toEqual([]);
  });
});

describe('media behind S3_PUBLIC_URL', () => {
  let t: ContentTest;
  beforeEach(async () => {
    t = await setupContentTest({ ...bucket.env, S3_PUBLIC_URL: 'https://cdn.example.com' });
  });
  afterEach(() => t.ctx.cleanup());

  it('redirects /media/ there, and the published pages name the images there', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: ImageAnswer }>(
      await admin.request('POST', '/api/news/images', fileForm(await makePng(500, 400), 'p.png', 'image/png')),
    );
    const thumb = image.image_url.thumb as string;
    const server = await listen(createHttpServer({ app: t.ctx.app, getSite: () => null, mediaDir: t.ctx.config.uploadsDir, storage: t.ctx.storage }));
    try {
      const answer = await rawRequest(server.port, thumb);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(`https://cdn.example.com${thumb}`);
    } finally {
      await server.close();
    }

    const { section } = await json<{ section: { id: number } }>(await admin.request('POST', '/api/news/section/store', { title: 'S', order: 0 }));
    const body = `Look: ![chart](${thumb}) and <img src="${thumb}"> but not https://example.org/media/news/x.webp`;
    await admin.request('POST', '/api/news/store', { title: 'P', body, section_id: section.id, published: true });
    const snapshot = exportSnapshot(t.ctx.db, t.ctx.config);
    const post = snapshot.namespaces.news.flatMap((entry) => entry.posts)[0];
    expect(post?.body).toBe(
      `Look: ![chart](https://cdn.example.com${thumb}) and <img src="https://cdn.example.com${thumb}"> but not https://example.org/media/news/x.webp`,
    );
  });
});
