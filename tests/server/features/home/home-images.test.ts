// Home images (docs/product/api.md#home, issue 5 item 3): upload with thumb/lg variants, assignment to sections,
// details, deletes that remove the files, permissions, and a publish for every write.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listHomeImages } from '../../../../server/features/home/queries.ts';
import { fileForm, filesUnder, json, makePng, mediaFile, setupContentTest, type ContentTest } from '../../content/helpers.ts';

interface HomeImageAnswer {
  id: number;
  title: string;
  alt: string;
  urls: Record<string, string>;
  sizes: Record<string, { width: number; height: number }>;
  home_section_id: number;
  order: number;
}

let t: ContentTest;
beforeEach(async () => {
  t = await setupContentTest();
});
afterEach(() => t.ctx.cleanup());

const homeFiles = () => filesUnder(path.join(t.ctx.config.uploadsDir, 'home'));

async function makeSection(admin: Awaited<ReturnType<ContentTest['admin']>>, title: string) {
  return (await json<{ section: { id: number } }>(await admin.request('POST', '/api/home/store', { title, body: '', order: 0 }))).section;
}

describe('home images', () => {
  it('uploads an image into a section with thumb and lg variants within HOME_IMAGE_VARIANTS', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, 'Welcome');
    const response = await admin.request(
      'POST',
      '/api/home/store/images',
      fileForm(await makePng(3000, 2000), 'probe.png', 'image/png', { home_section_id: String(section.id), alt: 'A probe' }),
    );
    expect(response.status).toBe(201);
    const { image, images } = await json<{ image: HomeImageAnswer; images: HomeImageAnswer[] }>(response);
    expect(image).toMatchObject({ title: 'probe', alt: 'A probe', home_section_id: section.id, order: 0 });
    expect(Object.keys(image.urls).sort()).toEqual(['lg', 'thumb']);
    expect(image.sizes).toEqual({ thumb: { width: 480, height: 320 }, lg: { width: 1200, height: 800 } });
    for (const url of Object.values(image.urls)) expect((await sharp(mediaFile(t.ctx, url)).metadata()).format).toBe('webp');
    expect(images.map((i) => i.id)).toEqual([image.id]);

    // Public slideshow of the section; the next upload goes last.
    const second = (
      await json<{ image: HomeImageAnswer }>(
        await admin.request('POST', '/api/home/images', fileForm(await makePng(600, 400), 'b.png', 'image/png', { home_section_id: String(section.id) })),
      )
    ).image;
    expect(second.order).toBe(1);
    const slideshow = await json<{ images: HomeImageAnswer[] }>(await (await t.anonymous()).request('GET', `/api/home/section/${section.id}/images/`));
    expect(slideshow.images.map((i) => i.id)).toEqual([image.id, second.id]);
    expect(t.publisher.reasons.filter((reason) => reason.startsWith('home image'))).toHaveLength(2);
  });

  it('keeps unassigned images (section 0) for admins only, and checks the section exists', async () => {
    const admin = await t.admin();
    const unassigned = await admin.request('POST', '/api/home/store/images', fileForm(await makePng(100, 100), 'u.png', 'image/png'));
    expect(unassigned.status).toBe(201);
    expect((await json<{ image: HomeImageAnswer }>(unassigned)).image.home_section_id).toBe(0);
    expect((await (await t.anonymous()).request('GET', '/api/home/section/0/images/')).status).toBe(401);
    expect((await (await t.user()).request('GET', '/api/home/section/0/images')).status).toBe(403);
    expect((await json<{ images: unknown[] }>(await admin.request('GET', '/api/home/section/0/images/'))).images).toHaveLength(1);
    expect((await admin.request('GET', '/api/home/section/99/images/')).status).toBe(404);

    const bad = await admin.request('POST', '/api/home/store/images', fileForm(await makePng(100, 100), 'u.png', 'image/png', { home_section_id: '99' }));
    expect(bad.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(bad)).errors.home_section_id?.[0]).toBe('The selected home section is invalid.');
    expect(homeFiles()).toHaveLength(2);
  });

  it("answers 'File not selected' and refuses non-images, leaving nothing", async () => {
    const admin = await t.admin();
    const none = await admin.request('POST', '/api/home/store/images', new FormData());
    expect(none.status).toBe(422);
    expect((await json<{ message: string }>(none)).message).toBe('File not selected');
    expect((await admin.request('POST', '/api/home/store/images', fileForm('<html>', 'x.png', 'image/png'))).status).toBe(422);
    expect(homeFiles()).toEqual([]);
    expect(listHomeImages(t.ctx.db)).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('edits details, moves an image between sections and deletes it with its files', async () => {
    const admin = await t.admin();
    const first = await makeSection(admin, 'First');
    const second = await makeSection(admin, 'Second');
    const { image } = await json<{ image: HomeImageAnswer }>(
      await admin.request('POST', '/api/home/store/images', fileForm(await makePng(500, 300), 'x.png', 'image/png', { home_section_id: String(first.id) })),
    );

    const details = await admin.request('PUT', '/api/home/images/update', { id: image.id, title: 'Laser', alt: 'A laser scanner' });
    expect(details.status).toBe(200);
    expect((await json<{ image: HomeImageAnswer }>(details)).image).toMatchObject({ title: 'Laser', alt: 'A laser scanner' });
    expect((await admin.request('PUT', '/api/home/images/update', { id: 999, title: 'x', alt: 'y' })).status).toBe(404);

    const moved = await admin.request('PUT', '/api/home/images/update/section', { id: image.id, home_section_id: second.id, current_section_id: first.id });
    expect(moved.status).toBe(200);
    const answer = await json<{ image: HomeImageAnswer; images: HomeImageAnswer[] }>(moved);
    expect(answer.image.home_section_id).toBe(second.id);
    expect(answer.images).toEqual([]);
    expect((await admin.request('PUT', '/api/home/images/update/section', { id: image.id, home_section_id: 999 })).status).toBe(422);

    const files = Object.values(image.urls).map((url) => mediaFile(t.ctx, url));
    const deleted = await admin.request('DELETE', '/api/home/delete/image', { id: image.id, current_section_id: second.id });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ id: image.id, images: [] });
    await vi.waitFor(() => expect(files.some((file) => fs.existsSync(file))).toBe(false));
    expect(homeFiles()).toEqual([]);
    expect((await admin.request('DELETE', '/api/home/delete/image', { id: image.id })).status).toBe(404);
  });

  it('serves the generic image paths with route "home" from the same library', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: HomeImageAnswer }>(
      await admin.request('POST', '/api/home/images', fileForm(await makePng(200, 200), 'g.png', 'image/png')),
    );
    expect((await json<{ images: HomeImageAnswer[] }>(await admin.request('GET', '/api/home/images'))).images.map((i) => i.id)).toEqual([image.id]);
    expect((await json<{ image: HomeImageAnswer }>(await admin.request('PUT', `/api/home/image/update/${image.id}`, { alt: 'Alt' }))).image.alt).toBe('Alt');
    const replaced = await json<{ image: HomeImageAnswer }>(
      await admin.request('POST', `/api/home/image/update-image/${image.id}`, fileForm(await makePng(900, 300), 'h.png', 'image/png')),
    );
    expect(replaced.image.sizes.lg).toEqual({ width: 900, height: 300 });
    await vi.waitFor(() => expect(homeFiles()).toHaveLength(2));
    expect((await admin.request('DELETE', '/api/home/images/', { ids: [image.id] })).status).toBe(200);
    await vi.waitFor(() => expect(homeFiles()).toEqual([]));
  });

  it('replacing the file rewrites the home sections that showed it, then removes the old files after the publish', async () => {
    const admin = await t.admin();
    const { image } = await json<{ image: HomeImageAnswer }>(
      await admin.request('POST', '/api/home/images', fileForm(await makePng(300, 200), 'old.png', 'image/png')),
    );
    const section = await makeSection(admin, 'Showcase');
    const body = `![a](${image.urls.lg}) and ![b](${image.urls.thumb})`;
    expect((await admin.request('PUT', '/api/home/update', { id: section.id, title: 'Showcase', body, order: 0 })).status).toBe(200);
    const replaced = await admin.request('POST', `/api/home/image/update-image/${image.id}`, fileForm(await makePng(800, 400), 'new.png', 'image/png'));
    expect(replaced.status).toBe(200);
    const answer = (await json<{ image: HomeImageAnswer }>(replaced)).image;
    expect(answer.urls.lg).not.toBe(image.urls.lg);
    const sections = (await json<{ sections: { id: number; body: string }[] }>(await admin.request('GET', '/api/home/getSections'))).sections;
    expect(sections.find((s) => s.id === section.id)?.body).toBe(`![a](${answer.urls.lg}) and ![b](${answer.urls.thumb})`);
    expect(t.publisher.reasons).toContain(`home image ${image.id} replaced`);
    await vi.waitFor(() => expect(Object.values(image.urls).some((url) => fs.existsSync(mediaFile(t.ctx, url)))).toBe(false));
    expect(homeFiles()).toHaveLength(2);
  });

  it('refuses every write by anonymous visitors and ordinary users and changes nothing', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, 'S');
    const { image } = await json<{ image: HomeImageAnswer }>(
      await admin.request('POST', '/api/home/store/images', fileForm(await makePng(100, 100), 'x.png', 'image/png', { home_section_id: String(section.id) })),
    );
    const before = t.publisher.reasons.length;
    const png = await makePng(50, 50);
    for (const [client, status] of [
      [await t.anonymous(), 401],
      [await t.user(), 403],
    ] as const) {
      expect((await client.request('POST', '/api/home/store/images', fileForm(png, 'x.png', 'image/png'))).status).toBe(status);
      expect((await client.request('PUT', '/api/home/images/update', { id: image.id, title: 'x', alt: 'x' })).status).toBe(status);
      expect((await client.request('PUT', '/api/home/images/update/section', { id: image.id, home_section_id: 0 })).status).toBe(status);
      expect((await client.request('DELETE', '/api/home/delete/image', { id: image.id })).status).toBe(status);
      expect((await client.request('GET', '/api/home/images')).status).toBe(status);
    }
    expect(listHomeImages(t.ctx.db)).toEqual([expect.objectContaining({ id: image.id, title: 'x', home_section_id: section.id })]);
    expect(homeFiles()).toHaveLength(2);
    expect(t.publisher.reasons.length).toBe(before);
  });
});
