// listPostsWithRelations maps raw rows itself (faster than drizzle's per-field mapping): it must give
// exactly what drizzle's own mapping of the same join gives, nulls for a missing file or author included.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { insertPost, listPostsWithRelations } from '../../../../server/features/content/queries.ts';
import { posts, sections, uploadedFiles, users } from '../../../../server/db/schema.ts';
import { insertContentFixture } from '../../../helpers/content-fixture.ts';
import { createTestContext } from '../../../helpers/test-context.ts';

const ctx = createTestContext();
afterAll(() => ctx.cleanup());

/** The oracle: the join written as drizzle maps it. */
function drizzleMapped(namespace: 'news', sectionId?: number) {
  return ctx.db
    .select({
      post: posts,
      section: { id: sections.id, title: sections.title, title_slug: sections.title_slug, order: sections.order },
      file: { id: uploadedFiles.id, filename: uploadedFiles.filename, description: uploadedFiles.description, size: uploadedFiles.size },
      user: { name: users.name, role: users.role, email_verified_at: users.email_verified_at },
    })
    .from(posts)
    .innerJoin(sections, eq(posts.section_id, sections.id))
    .leftJoin(uploadedFiles, eq(posts.uploaded_file_id, uploadedFiles.id))
    .leftJoin(users, eq(posts.user_id, users.id))
    .where(and(eq(posts.namespace, namespace), sectionId === undefined ? undefined : eq(posts.section_id, sectionId)))
    .orderBy(asc(sections.order), asc(sections.id), asc(posts.display_order), asc(posts.id))
    .all()
    .map((row) => ({ ...row.post, section: row.section, uploaded_file: row.file, user: row.user }));
}

describe('listPostsWithRelations', () => {
  const fixture = insertContentFixture(ctx.db);
  insertPost(ctx.db, 'news', {
    section_id: fixture.sections.later.id,
    title: 'No author, no file',
    body: 'x',
    published: true,
    display_order: 1,
    user_id: null,
  });

  it('equals drizzle’s mapping of the same join, for every post and for one section', () => {
    const all = listPostsWithRelations(ctx.db, 'news', { includeUnpublished: true });
    expect(all).toEqual(drizzleMapped('news'));
    expect(all.some((post) => post.uploaded_file !== null && post.user !== null)).toBe(true);
    expect(all.some((post) => post.uploaded_file === null && post.user === null)).toBe(true);
    expect(listPostsWithRelations(ctx.db, 'news', { includeUnpublished: true, sectionId: fixture.sections.releases.id })).toEqual(
      drizzleMapped('news', fixture.sections.releases.id),
    );
  });

  it('leaves unpublished posts out unless asked', () => {
    const published = listPostsWithRelations(ctx.db, 'news', { includeUnpublished: false });
    expect(published.every((post) => post.published === 1)).toBe(true);
    expect(published.length).toBeLessThan(listPostsWithRelations(ctx.db, 'news', { includeUnpublished: true }).length);
  });
});
