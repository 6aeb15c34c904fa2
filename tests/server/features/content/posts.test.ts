// Posts API (docs/product/api.md#content, issue 5 item 1) in each namespace: CRUD, validation, permissions,
// unpublished visibility, slugs, and a publish scheduled by every successful write and by no failure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertUploadedFile } from '../../../../server/features/files/queries.ts';
import { json, NAMESPACES, setupContentTest, type ContentTest } from '../../content/helpers.ts';

interface PostAnswer {
  id: number;
  title: string;
  title_slug: string;
  body: string;
  published: number;
  display_order: number;
  section_id: number;
  uploaded_file_id: number | null;
  section: { id: number; title: string; order: number };
  uploaded_file: { id: number; filename: string; description: string; size: number } | null;
  user: { name: string; role: string; email_verified_at: string | null } | null;
  created_at: string;
  created_at_diff: string;
}
type Sections = { sections: { id: number; title: string; posts: PostAnswer[] }[] };

let t: ContentTest;
beforeEach(async () => {
  t = await setupContentTest();
});
afterEach(() => t.ctx.cleanup());

async function makeSection(admin: Awaited<ReturnType<ContentTest['admin']>>, ns: string, title = 'Releases', order = 0) {
  const response = await admin.request('POST', `/api/${ns}/section/store`, { title, order });
  expect(response.status).toBe(201);
  return (await json<{ section: { id: number } }>(response)).section;
}

describe.each(NAMESPACES)('posts in %s', (ns) => {
  it('creates, reads, updates and deletes a post, each write scheduling a publish', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, ns);
    const before = t.publisher.reasons.length;

    const created = await admin.request('POST', `/api/${ns}/store`, {
      title: 'Version 9 is out',
      body: 'Now **faster**.',
      section_id: section.id,
      published: 1,
      display_order: 3,
      uploaded_file_id: 0,
      id: '',
    });
    expect(created.status).toBe(201);
    const { post } = await json<{ post: PostAnswer }>(created);
    expect(post).toMatchObject({
      title: 'Version 9 is out',
      title_slug: 'version-9-is-out',
      body: 'Now **faster**.',
      published: 1,
      display_order: 3,
      uploaded_file_id: null,
      uploaded_file: null,
      section: { id: section.id, title: 'Releases', order: 0 },
      user: { name: 'Ada Admin', role: 'admin' },
      created_at_diff: 'just now',
    });
    expect(post.user?.email_verified_at).toBeTruthy();

    const list = await json<Sections>(await (await t.anonymous()).request('GET', `/api/${ns}/getposts`));
    expect(list.sections).toHaveLength(1);
    expect(list.sections[0]?.posts.map((p) => p.id)).toEqual([post.id]);

    const updated = await admin.request('PUT', `/api/${ns}/update`, {
      id: post.id,
      title: 'Version 9.1 is out',
      body: 'Fixed.',
      section_id: section.id,
      published: false,
      display_order: 1,
      uploaded_file_id: null,
    });
    expect(updated.status).toBe(200);
    const after = (await json<{ post: PostAnswer }>(updated)).post;
    expect(after).toMatchObject({ title: 'Version 9.1 is out', body: 'Fixed.', published: 0, display_order: 1 });
    // The slug stays: links and anchors to the post keep working.
    expect(after.title_slug).toBe('version-9-is-out');

    const deleted = await admin.request('DELETE', `/api/${ns}/delete`, { id: post.id, section_id: section.id });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ id: post.id, section_id: section.id });
    const empty = await json<Sections>(await admin.request('GET', `/api/${ns}/getposts`));
    expect(empty.sections[0]?.posts).toEqual([]);
    expect(t.publisher.reasons.length - before).toBe(3);
  });

  it('answers 422 with per-field messages, writes nothing and schedules no publish', async () => {
    const admin = await t.admin();
    const other = NAMESPACES.find((candidate) => candidate !== ns) as string;
    const foreignSection = await makeSection(admin, other, 'Elsewhere');
    const before = t.publisher.reasons.length;

    const blank = await admin.request('POST', `/api/${ns}/store`, { title: '  ', body: '', section_id: '', display_order: 'first' });
    expect(blank.status).toBe(422);
    const answer = await json<{ message: string; errors: Record<string, string[]> }>(blank);
    expect(answer.errors.title?.[0]).toBe('The title field is required.');
    expect(answer.errors.body?.[0]).toBe('The body field is required.');
    expect(answer.errors.section_id?.[0]).toBe('The section id field is required.');
    expect(answer.errors.display_order?.[0]).toMatch(/number/);
    // docs/product/messages.md#validation names the post form's order slot `order`.
    expect(answer.errors.order).toEqual(answer.errors.display_order);
    expect(answer.message).toBe('The title field is required.');

    const long = await admin.request('POST', `/api/${ns}/store`, { title: 'x'.repeat(256), body: 'b', section_id: 1 });
    expect(long.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(long)).errors.title?.[0]).toMatch(/255/);
    // A section of another namespace does not exist here.
    const foreign = await admin.request('POST', `/api/${ns}/store`, { title: 'ok', body: 'b', section_id: foreignSection.id });
    expect(foreign.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(foreign)).errors.section_id?.[0]).toBe('The selected section id is invalid.');

    const section = await makeSection(admin, ns);
    const foreignFile = insertUploadedFile(t.ctx.db, other as 'news', {
      filename: 'a.pdf',
      stored_name: 'a'.repeat(32),
      description: '',
      mime_type: 'application/pdf',
      size: 1,
      sha256: '',
    });
    const badFile = await admin.request('POST', `/api/${ns}/store`, { title: 'ok', body: 'b', section_id: section.id, uploaded_file_id: foreignFile.id });
    expect(badFile.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(badFile)).errors.uploaded_file_id?.[0]).toBe('The selected file is invalid.');
    const badFlag = await admin.request('POST', `/api/${ns}/store`, { title: 'ok', body: 'b', section_id: section.id, published: 'maybe' });
    expect((await json<{ errors: Record<string, string[]> }>(badFlag)).errors.published).toBeDefined();

    const list = await json<Sections>(await admin.request('GET', `/api/${ns}/getposts`));
    expect(list.sections.flatMap((s) => s.posts)).toEqual([]);
    expect(t.publisher.reasons.length - before).toBe(1); // only the section made above
  });

  it('refuses writes from anonymous visitors (401) and ordinary users (403) and changes nothing', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, ns);
    const created = await json<{ post: PostAnswer }>(
      await admin.request('POST', `/api/${ns}/store`, { title: 'Keep me', body: 'b', section_id: section.id, published: 1 }),
    );
    const before = t.publisher.reasons.length;
    const payload = { id: created.post.id, title: 'Hacked', body: 'x', section_id: section.id, published: 1 };
    for (const [client, status] of [
      [await t.anonymous(), 401],
      [await t.user(), 403],
    ] as const) {
      expect((await client.request('POST', `/api/${ns}/store`, payload)).status).toBe(status);
      expect((await client.request('PUT', `/api/${ns}/update`, payload)).status).toBe(status);
      expect((await client.request('DELETE', `/api/${ns}/delete`, { id: created.post.id })).status).toBe(status);
    }
    const list = await json<Sections>(await admin.request('GET', `/api/${ns}/getposts`));
    expect(list.sections[0]?.posts.map((p) => p.title)).toEqual(['Keep me']);
    expect(t.publisher.reasons.length).toBe(before);
  });

  it('never gives unpublished posts to anonymous visitors or ordinary users; admins get them', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, ns, 'Guides');
    await admin.request('POST', `/api/${ns}/store`, { title: 'Public', body: 'p', section_id: section.id, published: 1 });
    const draft = await json<{ post: PostAnswer }>(
      await admin.request('POST', `/api/${ns}/store`, { title: 'Draft', body: 'SECRET', section_id: section.id, published: 0 }),
    );
    for (const client of [await t.anonymous(), await t.user()]) {
      for (const path of [`/api/${ns}/getposts`, `/api/${ns}/getPosts/${section.id}`, `/api/${ns}/getPosts/byslug/guides`, `/api/${ns}/getPosts/byslug/nope`]) {
        const text = await (await client.request('GET', path)).text();
        expect(text).toContain('Public');
        expect(text).not.toContain('SECRET');
      }
      const counts = await json<{ sections: { posts_count: number }[] }>(await client.request('GET', `/api/${ns}/section/getSections`));
      expect(counts.sections[0]?.posts_count).toBe(1);
    }
    const all = await json<{ posts: PostAnswer[] }>(await admin.request('GET', `/api/${ns}/getPosts/${section.id}`));
    expect(all.posts.map((p) => p.id)).toContain(draft.post.id);
  });
});

describe('slugs', () => {
  it('gives two posts with the same title different slugs, and keeps a slug on update unless asked', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, 'news');
    const store = (title: string) => admin.request('POST', '/api/news/store', { title, body: 'b', section_id: section.id, published: 1 });
    const first = (await json<{ post: PostAnswer }>(await store('Same title'))).post;
    const second = (await json<{ post: PostAnswer }>(await store('Same title'))).post;
    expect([first.title_slug, second.title_slug]).toEqual(['same-title', 'same-title-2']);
    // The same title in another namespace is another scope.
    const docsSection = await makeSection(admin, 'documentation');
    const docs = await json<{ post: PostAnswer }>(
      await admin.request('POST', '/api/documentation/store', { title: 'Same title', body: 'b', section_id: docsSection.id }),
    );
    expect(docs.post.title_slug).toBe('same-title');

    const renamed = await json<{ post: PostAnswer }>(await admin.request('PUT', '/api/news/update', { ...second, title: 'Another name' }));
    expect(renamed.post.title_slug).toBe('same-title-2');
    const regenerated = await json<{ post: PostAnswer }>(
      await admin.request('PUT', '/api/news/update', { ...second, title: 'Another name', regenerate_slug: true }),
    );
    expect(regenerated.post.title_slug).toBe('another-name');
    // Asking again keeps its own slug rather than counting itself as taken.
    const again = await json<{ post: PostAnswer }>(await admin.request('PUT', '/api/news/update', { ...second, title: 'Another name', regenerate_slug: 1 }));
    expect(again.post.title_slug).toBe('another-name');
  });
});

describe('reading', () => {
  it('answers byslug with the section posts, and an unknown slug with the first section (fallback: true)', async () => {
    const admin = await t.admin();
    const later = await makeSection(admin, 'tutorials', 'Advanced', 5);
    const first = await makeSection(admin, 'tutorials', 'Basics', 1);
    await admin.request('POST', '/api/tutorials/store', { title: 'B2', body: 'b', section_id: first.id, published: 1, display_order: 2 });
    await admin.request('POST', '/api/tutorials/store', { title: 'B1', body: 'b', section_id: first.id, published: 1, display_order: 1 });
    await admin.request('POST', '/api/tutorials/store', { title: 'A1', body: 'b', section_id: later.id, published: 1 });
    const anonymous = await t.anonymous();

    const known = await json<{ posts: PostAnswer[]; section_id: number; fallback: boolean }>(
      await anonymous.request('GET', '/api/tutorials/getPosts/byslug/advanced'),
    );
    expect(known).toMatchObject({ section_id: later.id, fallback: false });
    expect(known.posts.map((p) => p.title)).toEqual(['A1']);

    const unknown = await json<{ posts: PostAnswer[]; section_id: number; fallback: boolean; message: string }>(
      await anonymous.request('GET', '/api/tutorials/getPosts/byslug/no-such-section'),
    );
    expect(unknown).toMatchObject({ section_id: first.id, fallback: true });
    expect(unknown.posts.map((p) => p.title)).toEqual(['B1', 'B2']);
    expect(unknown.message).toMatch(/first section/);

    // Sections ascending by order, posts by display_order.
    const all = await json<Sections>(await anonymous.request('GET', '/api/tutorials/getposts'));
    expect(all.sections.map((s) => s.title)).toEqual(['Basics', 'Advanced']);
    expect((await anonymous.request('GET', `/api/news/getPosts/${first.id}`)).status).toBe(404);
  });

  it('answers with no sections, and 404 for a path that is not a namespace', async () => {
    const anonymous = await t.anonymous();
    expect(await json(await anonymous.request('GET', '/api/news/getPosts/byslug/anything'))).toMatchObject({ posts: [], section_id: null, fallback: true });
    expect((await anonymous.request('GET', '/api/blog/getposts')).status).toBe(404);
    const admin = await t.admin();
    expect((await admin.request('POST', '/api/blog/store', { title: 'x', body: 'y', section_id: 1 })).status).toBe(404);
  });

  it('shows the attached file of a post, and 404s updates of posts that do not exist', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, 'news');
    const file = insertUploadedFile(t.ctx.db, 'news', {
      filename: 'notes.pdf',
      stored_name: 'b'.repeat(32),
      description: 'Release notes',
      mime_type: 'application/pdf',
      size: 1234,
      sha256: '',
    });
    const created = await json<{ post: PostAnswer }>(
      await admin.request('POST', '/api/news/store', {
        title: 'With file',
        body: 'b',
        section_id: section.id,
        published: '1',
        uploaded_file_id: String(file.id),
      }),
    );
    expect(created.post.uploaded_file).toEqual({ id: file.id, filename: 'notes.pdf', description: 'Release notes', size: 1234 });
    const before = t.publisher.reasons.length;
    expect((await admin.request('PUT', '/api/news/update', { id: 9999, title: 'x', body: 'y', section_id: section.id })).status).toBe(404);
    expect((await admin.request('DELETE', '/api/news/delete', { id: 9999 })).status).toBe(404);
    // A post of another namespace is not found through this one.
    expect((await admin.request('DELETE', '/api/documentation/delete', { id: created.post.id })).status).toBe(404);
    expect(t.publisher.reasons.length).toBe(before);
  });

  it('accepts the post form as multipart too', async () => {
    const admin = await t.admin();
    const section = await makeSection(admin, 'news');
    const form = new FormData();
    for (const [key, value] of Object.entries({
      title: 'From a form',
      body: 'b',
      section_id: String(section.id),
      published: '1',
      display_order: '2',
      uploaded_file_id: '',
    }))
      form.append(key, value);
    const response = await admin.request('POST', '/api/news/store', form);
    expect(response.status).toBe(201);
    expect((await json<{ post: PostAnswer }>(response)).post).toMatchObject({ title: 'From a form', published: 1, display_order: 2, uploaded_file_id: null });
  });
});
