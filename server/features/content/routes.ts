// The content administration API (docs/product/api.md#content), one set of routers per namespace. Any other first
// segment is not a namespace and falls through to the API's 404. A namespace's images and extra files are the images
// and files features, mounted beside this one in server/app.ts.
//
// Posts of one namespace (news, documentation, tutorials; docs/product/reading.md#posts-screens, docs/product/api.md#content), mounted at /api/<ns>.
// Reads are public but only admins ever receive unpublished posts; writes are admin-only and each
// successful one schedules a publish. The answers are documented in docs/content-api.md.
//
// Sections of one namespace (docs/product/reading.md#posts-screens section panel, docs/product/api.md#content), mounted at /api/<ns>/section.
// Public list; admin-only writes, each scheduling a publish. A section that still holds posts is never
// deleted with them: the delete is refused, or its posts move to another section when the admin names
// one (move_to_section_id), in the same transaction, so no post is ever left without a section.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { NAMESPACES, type Namespace } from '../../db/schema.ts';
import { z } from 'zod';
import { isAdmin, requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import {
  deletePost,
  getPostById,
  getPostWithRelations,
  insertPost,
  listPostsWithRelations,
  updatePost,
  getSectionById,
  getSectionBySlug,
  countPostsBySection,
  countPostsInSection,
  movePostsToSection,
  deleteSection,
  insertSection,
  updateSection,
} from './queries.ts';
import { getUploadedFile } from '../files/index.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, type FieldErrors } from '../../http/errors.ts';
import { flagFieldOr, idField, nullableIdField, pathId, required, requiredText, tooLong } from '../../http/fields.ts';
import { parseFields, readFields, unprocessable } from '../../http/form-or-json.ts';
import { presentPost, presentSection } from './present.ts';
import { nowIso } from '../../db/timestamps.ts';
import { orderField } from '../../http/fields.ts';
import { listSections } from '../../db/queries/content-snapshot.ts';

/** Mounted at /api: the posts and sections of every namespace (their images and files are their own features). */
export function contentRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  for (const namespace of NAMESPACES) {
    app.route(`/${namespace}/section`, sectionsRoutes(ctx, namespace));
    app.route(`/${namespace}`, postsRoutes(ctx, namespace));
  }
  return app;
}

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

const sectionFields = { title: requiredText('title', 255), order: orderField('order') };
const sectionStoreSchema = z.object(sectionFields);
const sectionUpdateSchema = z.object({ ...sectionFields, id: idField('id'), regenerate_slug: flagFieldOr('regenerate slug', 0) });
const sectionDeleteSchema = z.object({
  id: idField('id'),
  move_to_section_id: z.preprocess(
    (value) => (value === '' || value === null || value === 0 || value === '0' ? undefined : value),
    idField('move to section id').optional(),
  ),
});

export function sectionsRoutes(ctx: AppContext, namespace: Namespace) {
  const { db, publisher } = ctx;

  return (
    new Hono<AppEnv>()
      // posts_count counts what the caller may see, so it never hints at unpublished posts.
      .get('/getSections', (c) => {
        const counts = countPostsBySection(db, namespace, isAdmin(c.get('user')));
        return c.json({ sections: listSections(db, namespace).map((section) => presentSection(section, counts.get(section.id) ?? 0)) });
      })

      .post('/store', requireAdmin, smallJsonBody(), async (c) => {
        const input = parseFields(sectionStoreSchema, await readFields(c));
        const section = writeTransaction(db, () => insertSection(db, namespace, input));
        publisher.schedule(`${namespace} section ${section.id} created`);
        return c.json({ message: 'Section created.', section: presentSection(section, 0) }, 201);
      })

      .put('/update', requireAdmin, smallJsonBody(), async (c) => {
        const { id, regenerate_slug, ...input } = parseFields(sectionUpdateSchema, await readFields(c));
        const section = writeTransaction(db, () => updateSection(db, namespace, id, input, { regenerateSlug: regenerate_slug === 1, atIso: nowIso(ctx) }));
        if (!section) return errorResponse(c, 404, 'This section does not exist.');
        publisher.schedule(`${namespace} section ${id} updated`);
        return c.json({ message: 'Section updated.', section: presentSection(section, countPostsInSection(db, id)) });
      })

      .delete('/delete', requireAdmin, smallJsonBody(), async (c) => {
        const { id, move_to_section_id: moveTo } = parseFields(sectionDeleteSchema, await readFields(c));
        const outcome = writeTransaction(db, () => {
          if (!getSectionById(db, namespace, id)) return undefined;
          const held = countPostsInSection(db, id);
          let moved = 0;
          if (held > 0) {
            if (moveTo === undefined) {
              throw unprocessable(
                { id: [`This section still holds ${held} post${held === 1 ? '' : 's'}. Move or delete them first, or choose a section to move them to.`] },
                `This section still holds ${held} post${held === 1 ? '' : 's'}. Move or delete them first, or choose a section to move them to.`,
              );
            }
            if (moveTo === id || !getSectionById(db, namespace, moveTo))
              throw unprocessable({ move_to_section_id: ['The selected section to move the posts to is invalid.'] });
            moved = movePostsToSection(db, id, moveTo, nowIso(ctx));
          }
          deleteSection(db, namespace, id);
          return { moved };
        });
        if (!outcome) return errorResponse(c, 404, 'This section does not exist.');
        publisher.schedule(`${namespace} section ${id} deleted`);
        return c.json({
          message: outcome.moved > 0 ? `Section deleted; ${outcome.moved} post${outcome.moved === 1 ? '' : 's'} moved.` : 'Section deleted.',
          id,
          moved_posts: outcome.moved,
          ...(outcome.moved > 0 ? { moved_to_section_id: moveTo } : {}),
        });
      })
  );
}

/** The content feature as server/app.ts mounts it: posts and sections of every namespace, at full paths. */
export function contentFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api', contentRoutes(ctx));
}
