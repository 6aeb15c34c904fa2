// Sections API (docs/product/api.md#content): CRUD per namespace, validation, permissions, and deletes that never
// orphan posts: refused while a section holds posts, or moving them by an explicit choice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, NAMESPACES, setupContentTest, type ContentTest } from '../../content/helpers.ts';

type SectionAnswer = { id: number; title: string; title_slug: string; order: number; posts_count?: number };

let t: ContentTest;
beforeEach(async () => {
  t = await setupContentTest();
});
afterEach(() => t.ctx.cleanup());

describe.each(NAMESPACES)('sections in %s', (ns) => {
  it('creates (JSON or multipart), lists by order, updates and deletes, each write publishing', async () => {
    const admin = await t.admin();
    const form = new FormData();
    form.append('title', 'Later');
    form.append('order', '5');
    const later = await admin.request('POST', `/api/${ns}/section/store`, form);
    expect(later.status).toBe(201);
    const early = await json<{ section: SectionAnswer }>(await admin.request('POST', `/api/${ns}/section/store`, { title: 'Getting started', order: 1 }));
    expect(early.section).toMatchObject({ title: 'Getting started', title_slug: 'getting-started', order: 1 });

    const list = await json<{ sections: SectionAnswer[] }>(await (await t.anonymous()).request('GET', `/api/${ns}/section/getSections`));
    expect(list.sections.map((s) => s.title)).toEqual(['Getting started', 'Later']);

    const updated = await admin.request('PUT', `/api/${ns}/section/update`, { id: early.section.id, title: 'First steps', order: 9 });
    expect(updated.status).toBe(200);
    const section = (await json<{ section: SectionAnswer }>(updated)).section;
    expect(section).toMatchObject({ title: 'First steps', order: 9, title_slug: 'getting-started' });
    const renamed = await json<{ section: SectionAnswer }>(await admin.request('PUT', `/api/${ns}/section/update`, { id: early.section.id, title: 'First steps', order: 9, regenerate_slug: 1 }));
    expect(renamed.section.title_slug).toBe('first-steps');

    const deleted = await admin.request('DELETE', `/api/${ns}/section/delete`, { id: early.section.id });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ id: early.section.id, moved_posts: 0 });
    const after = await json<{ sections: SectionAnswer[] }>(await admin.request('GET', `/api/${ns}/section/getSections`));
    expect(after.sections.map((s) => s.title)).toEqual(['Later']);
    expect(t.publisher.reasons).toHaveLength(5);
  });

  it('answers 422 per field and 404 for unknown ids, writing nothing', async () => {
    const admin = await t.admin();
    const bad = await admin.request('POST', `/api/${ns}/section/store`, { title: '', order: 'x' });
    expect(bad.status).toBe(422);
    const errors = (await json<{ errors: Record<string, string[]> }>(bad)).errors;
    expect(errors.title?.[0]).toBe('The title field is required.');
    expect(errors.order?.[0]).toBe('The order must be a number.');
    expect((await admin.request('POST', `/api/${ns}/section/store`, { title: 't'.repeat(256) })).status).toBe(422);
    expect((await admin.request('PUT', `/api/${ns}/section/update`, { id: 404, title: 'x', order: 0 })).status).toBe(404);
    expect((await admin.request('DELETE', `/api/${ns}/section/delete`, { id: 404 })).status).toBe(404);
    expect((await admin.request('DELETE', `/api/${ns}/section/delete`, {})).status).toBe(422);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('refuses writes from anonymous visitors and ordinary users', async () => {
    const admin = await t.admin();
    const { section } = await json<{ section: SectionAnswer }>(await admin.request('POST', `/api/${ns}/section/store`, { title: 'Keep', order: 0 }));
    const before = t.publisher.reasons.length;
    for (const [client, status] of [
      [await t.anonymous(), 401],
      [await t.user(), 403],
    ] as const) {
      expect((await client.request('POST', `/api/${ns}/section/store`, { title: 'x', order: 0 })).status).toBe(status);
      expect((await client.request('PUT', `/api/${ns}/section/update`, { id: section.id, title: 'x', order: 0 })).status).toBe(status);
      expect((await client.request('DELETE', `/api/${ns}/section/delete`, { id: section.id })).status).toBe(status);
    }
    const list = await json<{ sections: SectionAnswer[] }>(await admin.request('GET', `/api/${ns}/section/getSections`));
    expect(list.sections.map((s) => s.title)).toEqual(['Keep']);
    expect(t.publisher.reasons.length).toBe(before);
  });
});

describe('deleting a section that holds posts', () => {
  it('is refused with a message, or moves the posts when the admin names a section', async () => {
    const admin = await t.admin();
    const old = (await json<{ section: SectionAnswer }>(await admin.request('POST', '/api/news/section/store', { title: 'Old', order: 0 }))).section;
    const target = (await json<{ section: SectionAnswer }>(await admin.request('POST', '/api/news/section/store', { title: 'Target', order: 1 }))).section;
    const foreign = (await json<{ section: SectionAnswer }>(await admin.request('POST', '/api/documentation/section/store', { title: 'Docs', order: 1 }))).section;
    await admin.request('POST', '/api/news/store', { title: 'P1', body: 'b', section_id: old.id, published: 1 });
    await admin.request('POST', '/api/news/store', { title: 'P2', body: 'b', section_id: old.id, published: 0 });
    const before = t.publisher.reasons.length;

    const refused = await admin.request('DELETE', '/api/news/section/delete', { id: old.id });
    expect(refused.status).toBe(422);
    const answer = await json<{ message: string; errors: Record<string, string[]> }>(refused);
    expect(answer.message).toBe('This section still holds 2 posts. Move or delete them first, or choose a section to move them to.');
    expect(answer.errors.id?.[0]).toBe(answer.message);
    for (const moveTo of [old.id, foreign.id, 999]) {
      const bad = await admin.request('DELETE', '/api/news/section/delete', { id: old.id, move_to_section_id: moveTo });
      expect(bad.status).toBe(422);
      expect((await json<{ errors: Record<string, string[]> }>(bad)).errors.move_to_section_id).toBeDefined();
    }
    expect(t.publisher.reasons.length).toBe(before);
    let sections = await json<{ sections: SectionAnswer[] }>(await admin.request('GET', '/api/news/section/getSections'));
    expect(sections.sections.map((s) => [s.title, s.posts_count])).toEqual([
      ['Old', 2],
      ['Target', 0],
    ]);

    const moved = await admin.request('DELETE', '/api/news/section/delete', { id: old.id, move_to_section_id: target.id });
    expect(moved.status).toBe(200);
    expect(await json(moved)).toMatchObject({ id: old.id, moved_posts: 2, moved_to_section_id: target.id, message: 'Section deleted; 2 posts moved.' });
    sections = await json<{ sections: SectionAnswer[] }>(await admin.request('GET', '/api/news/section/getSections'));
    expect(sections.sections.map((s) => [s.title, s.posts_count])).toEqual([['Target', 2]]);
    expect(t.publisher.reasons.length).toBe(before + 1);
  });
});
