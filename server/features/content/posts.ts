// Posts of one namespace (news, documentation, tutorials; docs/product/reading.md#posts-screens, docs/product/api.md#content), mounted at /api/<ns>.
// Reads are public but only admins ever receive unpublished posts; writes are admin-only and each
// successful one schedules a publish. The answers are documented in docs/content-api.md.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { isAdmin, requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { deletePost, getPostById, getPostWithRelations, insertPost, listPostsWithRelations, updatePost } from '../../db/queries/posts.ts';
import { getSectionById, getSectionBySlug, listSections } from '../../db/queries/sections.ts';
import { getUploadedFile } from '../../db/queries/uploaded-files.ts';
import type { Namespace } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, type FieldErrors } from '../../http/errors.ts';
import { flagFieldOr, idField, nullableIdField, pathId, required, requiredText, tooLong } from '../../http/fields.ts';
import { parseFields, readFields, unprocessable } from '../../http/form-or-json.ts';
import { nowIso, orderField } from './common.ts';
import { presentPost, presentSection } from './posts-present.ts';

/** Markdown of a long documentation page fits easily; the request limit leaves room for 4-byte UTF-8. */
export const MAX_POST_BODY_CHARS = 500_000;
const POST_REQUEST_LIMIT = 4 * 1024 * 1024;


const postFields = {
  title: requiredText('title', 255),
  body: z
    .string({ error: required('body') })
    .max(MAX_POST_BODY_CHARS, tooLong('body', MAX_POST_BODY_CHARS))
    .refine((body) => body.trim() !== '', required('body')),
  section_id: idField('section id'),
  // null, '', 0 and 'null' all mean "no file for download" (the form's No file option).
  uploaded_file_id: nullableIdField('file'),
  published: flagFieldOr('published', 0),
  display_order: orderField('display order'),
};
const storeSchema = z.object(postFields);
const updateSchema = z.object({
  ...postFields,
  id: idField('id'),
  // Slugs are URLs and anchors: they stay when a title changes unless the admin asks for a new one.
  regenerate_slug: flagFieldOr('regenerate slug', 0),
});
const deleteSchema = z.object({ id: idField('id'), section_id: z.unknown().optional() });

/** Post-form errors: display_order's messages also go under `order`, the slot docs/product/messages.md#validation names. */
function parsePostFields<Schema extends z.ZodType>(schema: Schema, fields: Record<string, unknown>): z.output<Schema> {
  try {
    return parseFields(schema, fields);
  } catch (error) {
    const errors = (error as { errors?: FieldErrors }).errors;
    if (errors?.display_order) errors.order = errors.display_order;
    throw error;
  }
}

export function postsRoutes(ctx: AppContext, namespace: Namespace) {
  const { db, publisher } = ctx;

  /** Checks the ids that must exist in this namespace; runs inside the write transaction. */
  const checkReferences = (input: { section_id: number; uploaded_file_id: number | null }) => {
    const errors: FieldErrors = {};
    if (!getSectionById(db, namespace, input.section_id)) errors.section_id = ['The selected section id is invalid.'];
    if (input.uploaded_file_id !== null && !getUploadedFile(db, namespace, input.uploaded_file_id)) errors.uploaded_file_id = ['The selected file is invalid.'];
    if (Object.keys(errors).length > 0) throw unprocessable(errors);
  };

  const sectionsWithPosts = (includeUnpublished: boolean) => {
    const posts = listPostsWithRelations(db, namespace, { includeUnpublished }).map((post) => presentPost(post, ctx.now()));
    return listSections(db, namespace).map((section) => ({ ...presentSection(section), posts: posts.filter((post) => post.section_id === section.id) }));
  };

  return (
    new Hono<AppEnv>()
      .get('/getposts', (c) => c.json({ sections: sectionsWithPosts(isAdmin(c.get('user'))) }))
      .get('/getPosts', (c) => c.json({ sections: sectionsWithPosts(isAdmin(c.get('user'))) }))

      // Unknown slug: the first section's posts, with fallback: true (docs/product/reading.md#posts-screens redirects to it).
      .get('/getPosts/byslug/:slug', (c) => {
        const slug = c.req.param('slug');
        const section = getSectionBySlug(db, namespace, slug) ?? listSections(db, namespace)[0];
        if (!section) return c.json({ posts: [], section_id: null, section: null, fallback: true, message: 'There are no sections yet.' });
        const posts = listPostsWithRelations(db, namespace, { includeUnpublished: isAdmin(c.get('user')), sectionId: section.id });
        const fallback = section.title_slug !== slug;
        return c.json({
          posts: posts.map((post) => presentPost(post, ctx.now())),
          section_id: section.id,
          section: presentSection(section),
          fallback,
          ...(fallback ? { message: `There is no section "${slug}"; showing the first section.` } : {}),
        });
      })

      .get('/getPosts/:sectionId{[0-9]+}', (c) => {
        const section = getSectionById(db, namespace, pathId(c.req.param('sectionId')));
        if (!section) return errorResponse(c, 404, 'This section does not exist.');
        const posts = listPostsWithRelations(db, namespace, { includeUnpublished: isAdmin(c.get('user')), sectionId: section.id });
        return c.json({ posts: posts.map((post) => presentPost(post, ctx.now())), section_id: section.id, section: presentSection(section) });
      })

      .post('/store', requireAdmin, smallJsonBody(POST_REQUEST_LIMIT), async (c) => {
        const input = parsePostFields(storeSchema, await readFields(c));
        const author = c.get('user');
        const post = writeTransaction(db, () => {
          checkReferences(input);
          return insertPost(db, namespace, { ...input, published: input.published === 1, user_id: author?.id ?? null });
        });
        publisher.schedule(`${namespace} post ${post.id} created`);
        const created = getPostWithRelations(db, namespace, post.id);
        return c.json({ message: 'Post created.', post: created && presentPost(created, ctx.now()) }, 201);
      })

      .put('/update', requireAdmin, smallJsonBody(POST_REQUEST_LIMIT), async (c) => {
        const { id, regenerate_slug, ...input } = parsePostFields(updateSchema, await readFields(c));
        const updated = writeTransaction(db, () => {
          if (!getPostById(db, namespace, id)) return undefined;
          checkReferences(input);
          return updatePost(db, namespace, id, { ...input, published: input.published === 1 }, { regenerateSlug: regenerate_slug === 1, atIso: nowIso(ctx) });
        });
        if (!updated) return errorResponse(c, 404, 'This post does not exist.');
        publisher.schedule(`${namespace} post ${id} updated`);
        const post = getPostWithRelations(db, namespace, id);
        return c.json({ message: 'Post updated.', post: post && presentPost(post, ctx.now()) });
      })

      .delete('/delete', requireAdmin, smallJsonBody(), async (c) => {
        const { id } = parseFields(deleteSchema, await readFields(c));
        const deleted = writeTransaction(db, () => {
          const post = getPostById(db, namespace, id);
          return post && deletePost(db, namespace, id) ? post : undefined;
        });
        if (!deleted) return errorResponse(c, 404, 'This post does not exist.');
        publisher.schedule(`${namespace} post ${id} deleted`);
        // The attached file stays in the files library: other posts may use it, and the admin decides.
        return c.json({ message: 'Post deleted.', id, section_id: deleted.section_id });
      })
  );
}
