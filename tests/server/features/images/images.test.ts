// Image libraries of the post namespaces (docs/product/api.md#images, issue 5 items 3 and 6): real images made
// with sharp, checked on disk; refusals by content, size and pixel count leave no file and no row.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listUploadedImages } from '../../../../server/features/images/queries.ts';
import { insertHomeSection } from '../../../../server/features/home/queries.ts';
import type { TestClient } from '../../../helpers/auth.ts';
import {
  fileForm,
  filesUnder,
  json,
  makeJpegWithGps,
  makePixelBombPng,
  makePng,
  mediaFile,
  setupContentTest,
  type ContentTest,
} from '../../content/helpers.ts';

interface ImageAnswer {
  id: number;
  title: string;
  alt: string;
  image_url: Record<string, string>;
  sizes: Record<string, { width: number; height: number }>;
  is_video: number;
}

let t: ContentTest;
beforeEach(async () => {
  t = await setupContentTest({ IMAGE_MAX_BYTES: String(2 * 1024 * 1024) });
});
afterEach(() => t.ctx.cleanup());

const uploadsOf = (route: string) => filesUnder(path.join(t.ctx.config.uploadsDir, route));

async function upload(client: TestClient, route: string, bytes: Buffer, name = 'photo.png', type = 'image/png', fields: Record<string, string> = {}) {
  return client.request('POST', `/api/${route}/images`, fileForm(bytes, name, type, fields));
}

describe('uploading an image', () => {
  it('stores thumb, image and lg WebP variants plus a fallback, with their real sizes, never upscaled', async () => {
    const admin = await t.admin();
    const response = await upload(admin, 'news', await makePng(2400, 1200), 'gauge.png', 'image/png', { alt: 'A gauge' });
    expect(response.status).toBe(201);
    const { image } = await json<{ image: ImageAnswer }>(response);
    expect(image).toMatchObject({ title: 'gauge', alt: 'A gauge', is_video: 0 });
    expect(Object.keys(image.image_url).sort()).toEqual(['fallback', 'image', 'lg', 'thumb']);
    expect(image.sizes).toEqual({
      thumb: { width: 400, height: 200 },
      image: { width: 1200, height: 600 },
      lg: { width: 2000, height: 1000 },
      fallback: { width: 1200, height: 600 },
    });
    for (const [variant, url] of Object.entries(image.image_url)) {
      expect(url).toMatch(new RegExp(`^/media/news/[0-9a-f]{32}-${variant}\\.(webp|png)$`));
      const metadata = await sharp(mediaFile(t.ctx, url)).metadata();
      expect(metadata.format).toBe(variant === 'fallback' ? 'png' : 'webp');
      expect({ width: metadata.width, height: metadata.height }).toEqual(image.sizes[variant]);
    }
    expect(uploadsOf('news')).toHaveLength(4);
    expect(t.publisher.reasons).toEqual([`news image ${image.id} uploaded`]);

    // A small image is never upscaled: lg stays at its own size.
    const small = (await json<{ image: ImageAnswer }>(await upload(admin, 'tutorials', await makePng(300, 200)))).image;
    expect(small.sizes.lg).toEqual({ width: 300, height: 200 });
    expect(small.sizes.thumb).toEqual({ width: 300, height: 200 });
  });

  it('drops EXIF metadata (GPS included) from every variant of a JPEG and keeps a JPEG fallback', async () => {
    const admin = await t.admin();
    const original = await makeJpegWithGps();
    const exif = (await sharp(original).metadata()).exif;
    // The GPS IFD pointer (tag 0x8825, little-endian) is in the upload.
    expect(exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    const { image } = await json<{ image: ImageAnswer }>(await upload(admin, 'documentation', original, 'site.jpg', 'image/jpeg'));
    expect(image.image_url.fallback).toMatch(/\.jpg$/);
    for (const url of Object.values(image.image_url)) {
      const metadata = await sharp(mediaFile(t.ctx, url)).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
    }
  });

  it('accepts WebP, GIF and AVIF by content', async () => {
    const admin = await t.admin();
    const base = sharp({ create: { width: 120, height: 80, channels: 3, background: '#888' } });
    for (const [format, bytes] of [
      ['webp', await base.clone().webp().toBuffer()],
      ['gif', await base.clone().gif().toBuffer()],
      ['avif', await base.clone().avif().toBuffer()],
    ] as const) {
      const response = await upload(admin, 'news', bytes, `x.${format}`, `image/${format}`);
      expect(response.status, format).toBe(201);
    }
  });

  it("answers 'File not selected' (422) without a file, and for an empty file input", async () => {
    const admin = await t.admin();
    const none = await admin.request('POST', '/api/news/images', new FormData());
    expect(none.status).toBe(422);
    expect(await json(none)).toEqual({ message: 'File not selected', errors: { file: ['File not selected'] } });
    const empty = new FormData();
    empty.append('file', new File([], '', { type: 'application/octet-stream' }));
    expect((await admin.request('POST', '/api/news/images', empty)).status).toBe(422);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('refuses an HTML file renamed .png, an SVG and a text file, leaving no file and no row', async () => {
    const admin = await t.admin();
    const refused = [
      ['<!doctype html><html><script>alert(1)</script></html>', 'evil.png', 'image/png'],
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>', 'logo.svg', 'image/svg+xml'],
      ['<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', 'logo.png', 'image/png'],
      ['just text', 'notes.jpg', 'image/jpeg'],
    ] as const;
    for (const [content, name, type] of refused) {
      const response = await upload(admin, 'news', Buffer.from(content), name, type);
      expect(response.status, name).toBe(422);
      const answer = await json<{ message: string; errors: { file: string[] } }>(response);
      expect(answer.message).toBe('The file must be an image of type: jpeg, png, webp, gif, avif.');
      expect(answer.errors.file[0]).toBe(answer.message);
    }
    // A PNG signature followed by garbage is refused too (it cannot be decoded).
    const damaged = Buffer.concat([(await makePng(50, 50)).subarray(0, 40), Buffer.alloc(200, 7)]);
    expect((await upload(admin, 'news', damaged)).status).toBe(422);
    expect(uploadsOf('news')).toEqual([]);
    expect(listUploadedImages(t.ctx.db, 'news')).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('refuses a pixel bomb (a tiny PNG claiming 30000×30000) without decoding it', async () => {
    const admin = await t.admin();
    const bomb = makePixelBombPng();
    expect(bomb.length).toBeLessThan(2000);
    const memoryBefore = process.memoryUsage().rss;
    const response = await upload(admin, 'news', bomb, 'bomb.png');
    expect(response.status).toBe(422);
    expect((await json<{ message: string }>(response)).message).toMatch(/too many pixels/);
    // Decoding 900 MP would take gigabytes; refusing from the header takes next to nothing.
    expect(process.memoryUsage().rss - memoryBefore).toBeLessThan(200 * 1024 * 1024);
    expect(uploadsOf('news')).toEqual([]);
    expect(listUploadedImages(t.ctx.db, 'news')).toEqual([]);
  });

  it('answers 413 for a body over the image limit, announced or streamed, leaving nothing behind', async () => {
    const admin = await t.admin();
    const big = Buffer.concat([await makePng(10, 10), Buffer.alloc(3 * 1024 * 1024)]);
    const streamed = await upload(admin, 'news', big);
    expect(streamed.status).toBe(413);
    expect((await json<{ message: string }>(streamed)).message).toBe('The image may not be greater than 2 MiB.');
    // With Content-Length the refusal comes before a byte of the body is read.
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const announced = await t.ctx.app.request('/api/news/images', {
      method: 'POST',
      headers: {
        Cookie: admin.cookieHeader,
        'X-XSRF-TOKEN': admin.xsrf ?? '',
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(50 * 1024 * 1024),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(announced.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
    expect(uploadsOf('news')).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('removes the written variants when storing the row fails', async () => {
    const admin = await t.admin();
    // A trigger makes the insert fail after sharp has written every variant.
    t.ctx.db.$client.exec("CREATE TRIGGER refuse_images BEFORE INSERT ON uploaded_images BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const response = await upload(admin, 'news', await makePng(300, 300));
    expect(response.status).toBe(500);
    expect(uploadsOf('news')).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('refuses uploads by anonymous visitors (401) and ordinary users (403), and hides the library from them', async () => {
    const png = await makePng(100, 100);
    for (const [client, status] of [
      [await t.anonymous(), 401],
      [await t.user(), 403],
    ] as const) {
      expect((await upload(client, 'news', png)).status).toBe(status);
      expect((await client.request('GET', '/api/news/images')).status).toBe(status);
      expect((await client.request('PUT', '/api/news/image/update/1', { title: 'x' })).status).toBe(status);
      expect((await client.request('DELETE', '/api/news/images/1')).status).toBe(status);
      expect((await client.request('DELETE', '/api/news/images/', { ids: [1] })).status).toBe(status);
      expect((await client.request('POST', '/api/news/image/update-image/1', fileForm(png, 'a.png', 'image/png'))).status).toBe(status);
    }
    expect(uploadsOf('news')).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });
});

describe('managing images', () => {
  it('lists, edits title and alt, and deletes one image, removing its files after the publish', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: ImageAnswer }>(await upload(admin, 'news', await makePng(800, 600)));
    const listed = await json<{ images: ImageAnswer[] }>(await admin.request('GET', '/api/news/images'));
    expect(listed.images.map((i) => i.id)).toEqual([image.id]);
    expect(await json<{ images: unknown[] }>(await admin.request('GET', '/api/tutorials/images'))).toEqual({ images: [] });

    const edited = await admin.request('PUT', `/api/news/image/update/${image.id}`, { title: 'Probe head', alt: 'A probe head touching a part' });
    expect(edited.status).toBe(200);
    expect((await json<{ image: ImageAnswer }>(edited)).image).toMatchObject({ title: 'Probe head', alt: 'A probe head touching a part' });
    expect((await admin.request('PUT', `/api/news/image/update/${image.id}`, { alt: 'x'.repeat(256) })).status).toBe(422);
    expect((await admin.request('PUT', '/api/news/image/update/999', { title: 'x' })).status).toBe(404);

    const files = Object.values(image.image_url).map((url) => mediaFile(t.ctx, url));
    expect(files.every((file) => fs.existsSync(file))).toBe(true);
    const deleted = await admin.request('DELETE', `/api/news/images/${image.id}`);
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ ids: [image.id] });
    await vi.waitFor(() => expect(files.some((file) => fs.existsSync(file))).toBe(false));
    expect(uploadsOf('news')).toEqual([]);
    expect((await admin.request('DELETE', `/api/news/images/${image.id}`)).status).toBe(404);
    expect(t.publisher.reasons).toHaveLength(3);
  });

  it('deletes selected images; an empty selection answers Nothing selected!', async () => {
    const admin = await t.admin();
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await json<{ image: ImageAnswer }>(await upload(admin, 'tutorials', await makePng(100 + i, 100)))).image.id);
    const nothing = await admin.request('DELETE', '/api/tutorials/images/', { ids: [] });
    expect(nothing.status).toBe(422);
    expect((await json<{ message: string }>(nothing)).message).toBe('Nothing selected!');
    const response = await admin.request('DELETE', '/api/tutorials/images/', { ids: [ids[0], { id: ids[1] }, 12345] });
    expect(response.status).toBe(200);
    const answer = await json<{ ids: number[]; report: { id: number; message: string }[] }>(response);
    expect(answer.ids.sort()).toEqual([ids[0], ids[1]].sort());
    expect(answer.report).toEqual([{ id: 12345, message: 'This image does not exist.' }]);
    await vi.waitFor(() => expect(uploadsOf('tutorials')).toHaveLength(4));
  });

  it('refuses to delete an image a post or home section shows, naming them, unless forced', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: ImageAnswer }>(await upload(admin, 'news', await makePng(640, 480), 'chart.png'));
    const { section } = await json<{ section: { id: number } }>(await admin.request('POST', '/api/news/section/store', { title: 'S', order: 0 }));
    await admin.request('POST', '/api/news/store', {
      title: 'Quarterly results',
      body: `See ![chart](${image.image_url.image})`,
      section_id: section.id,
      published: 0,
    });
    insertHomeSection(t.ctx.db, { title: 'Welcome', body: `<img src="${image.image_url.thumb}">`, order: 0 });
    const before = t.publisher.reasons.length;

    const refused = await admin.request('DELETE', `/api/news/images/${image.id}`);
    expect(refused.status).toBe(409);
    const answer = await json<{ message: string; report: { id: number; used_in: { posts: { title: string }[]; home_sections: { title: string }[] } }[] }>(
      refused,
    );
    expect(answer.message).toContain('the post "Quarterly results" (news, not published)');
    expect(answer.message).toContain('the home section "Welcome"');
    expect(answer.report[0]?.used_in.posts.map((p) => p.title)).toEqual(['Quarterly results']);
    const bulk = await admin.request('DELETE', '/api/news/images/', { ids: [image.id] });
    expect(bulk.status).toBe(409);
    expect(Object.values(image.image_url).every((url) => fs.existsSync(mediaFile(t.ctx, url)))).toBe(true);
    expect(listUploadedImages(t.ctx.db, 'news')).toHaveLength(1);
    expect(t.publisher.reasons.length).toBe(before);

    const forced = await admin.request('DELETE', `/api/news/images/${image.id}?force=1`);
    expect(forced.status).toBe(200);
    await vi.waitFor(() => expect(uploadsOf('news')).toEqual([]));
  });

  it('replaces the file of an image: new variants, pages rewritten to them, old files removed', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: ImageAnswer }>(await upload(admin, 'documentation', await makePng(640, 480)));
    const { section } = await json<{ section: { id: number } }>(await admin.request('POST', '/api/documentation/section/store', { title: 'S', order: 0 }));
    const { post } = await json<{ post: { id: number } }>(
      await admin.request('POST', '/api/documentation/store', {
        title: 'Setup',
        body: `![a](${image.image_url.image}) and ![b](${image.image_url.lg})`,
        section_id: section.id,
        published: 1,
      }),
    );
    const before = t.publisher.reasons.length;

    const none = await admin.request('POST', `/api/documentation/image/update-image/${image.id}`, new FormData());
    expect(none.status).toBe(422);
    expect((await json<{ message: string }>(none)).message).toBe('File not selected');
    const bad = await admin.request('POST', `/api/documentation/image/update-image/${image.id}`, fileForm('<html></html>', 'x.png', 'image/png'));
    expect(bad.status).toBe(422);
    expect(uploadsOf('documentation')).toHaveLength(4);

    const replaced = await admin.request(
      'POST',
      `/api/documentation/image/update-image/${image.id}`,
      fileForm(await makePng(1000, 500), 'new.png', 'image/png'),
    );
    expect(replaced.status).toBe(200);
    const answer = await json<{ image: ImageAnswer; updated_posts: number[] }>(replaced);
    expect(answer.image.id).toBe(image.id);
    expect(answer.image.sizes.image).toEqual({ width: 1000, height: 500 });
    expect(answer.image.image_url.image).not.toBe(image.image_url.image);
    expect(answer.updated_posts).toEqual([post.id]);
    const body = (await json<{ posts: { body: string }[] }>(await admin.request('GET', `/api/documentation/getPosts/${section.id}`))).posts[0]?.body;
    expect(body).toBe(`![a](${answer.image.image_url.image}) and ![b](${answer.image.image_url.lg})`);
    await vi.waitFor(() => expect(Object.values(image.image_url).some((url) => fs.existsSync(mediaFile(t.ctx, url)))).toBe(false));
    expect(uploadsOf('documentation')).toHaveLength(4);
    expect(t.publisher.reasons.length).toBe(before + 1);
  });
});

describe('video items', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/shorts/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ'],
  ])('makes a privacy-friendly video item from %s', async (link) => {
    const admin = await t.admin();
    const response = await admin.request('POST', '/api/news/images', { video_url: link });
    expect(response.status).toBe(201);
    const { image } = await json<{ image: ImageAnswer }>(response);
    expect(image).toMatchObject({
      is_video: 1,
      image_url: { video: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' },
      title: 'YouTube video dQw4w9WgXcQ',
    });
    expect(t.publisher.reasons).toHaveLength(1);
  });

  it.each([
    ['https://vimeo.com/12345'],
    ['https://www.youtube.com/watch?v=short'],
    ['javascript:alert(1)'],
    ['https://evil.example/embed/dQw4w9WgXcQ'],
    ['not a link'],
  ])('refuses %s with 422', async (link) => {
    const admin = await t.admin();
    const form = new FormData();
    form.append('video_url', link);
    const response = await admin.request('POST', '/api/news/images', form);
    expect(response.status).toBe(422);
    expect(await json(response)).toEqual({
      message: 'The link is not a YouTube video link.',
      errors: { video_url: ['The link is not a YouTube video link.'] },
    });
    expect(listUploadedImages(t.ctx.db, 'news')).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('refuses to replace the file of a video item', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: ImageAnswer }>(await admin.request('POST', '/api/news/images', { video_url: 'https://youtu.be/dQw4w9WgXcQ' }));
    expect((await admin.request('POST', `/api/news/image/update-image/${image.id}`, fileForm(await makePng(10, 10), 'a.png', 'image/png'))).status).toBe(422);
  });
});
