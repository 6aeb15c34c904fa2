// Sections of one namespace (docs/product/reading.md#posts-screens section panel, docs/product/api.md#content), mounted at /api/<ns>/section.
// Public list; admin-only writes, each scheduling a publish. A section that still holds posts is never
// deleted with them: the delete is refused, or its posts move to another section when the admin names
// one (move_to_section_id), in the same transaction, so no post is ever left without a section.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { isAdmin, requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { countPostsBySection, countPostsInSection, movePostsToSection } from '../../db/queries/posts.ts';
import { deleteSection, getSectionById, insertSection, listSections, updateSection } from '../../db/queries/sections.ts';
import type { Namespace } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { flagFieldOr, idField, requiredText } from '../../http/fields.ts';
import { parseFields, readFields, unprocessable } from '../../http/form-or-json.ts';
import { nowIso, orderField } from './common.ts';
import { presentSection } from './posts-present.ts';

const sectionFields = { title: requiredText('title', 255), order: orderField('order') };
const storeSchema = z.object(sectionFields);
const updateSchema = z.object({ ...sectionFields, id: idField('id'), regenerate_slug: flagFieldOr('regenerate slug', 0) });
const deleteSchema = z.object({
  id: idField('id'),
  move_to_section_id: z.preprocess((value) => (value === '' || value === null || value === 0 || value === '0' ? undefined : value), idField('move to section id').optional()),
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
        const input = parseFields(storeSchema, await readFields(c));
        const section = writeTransaction(db, () => insertSection(db, namespace, input));
        publisher.schedule(`${namespace} section ${section.id} created`);
        return c.json({ message: 'Section created.', section: presentSection(section, 0) }, 201);
      })

      .put('/update', requireAdmin, smallJsonBody(), async (c) => {
        const { id, regenerate_slug, ...input } = parseFields(updateSchema, await readFields(c));
        const section = writeTransaction(db, () => updateSection(db, namespace, id, input, { regenerateSlug: regenerate_slug === 1, atIso: nowIso(ctx) }));
        if (!section) return errorResponse(c, 404, 'This section does not exist.');
        publisher.schedule(`${namespace} section ${id} updated`);
        return c.json({ message: 'Section updated.', section: presentSection(section, countPostsInSection(db, id)) });
      })

      .delete('/delete', requireAdmin, smallJsonBody(), async (c) => {
        const { id, move_to_section_id: moveTo } = parseFields(deleteSchema, await readFields(c));
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
            if (moveTo === id || !getSectionById(db, namespace, moveTo)) throw unprocessable({ move_to_section_id: ['The selected section to move the posts to is invalid.'] });
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
