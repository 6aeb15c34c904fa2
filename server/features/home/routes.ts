// Home sections (docs/product/reading.md#home, docs/product/api.md#home): public read, admin-only writes; every write republishes.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField } from '../../http/fields.ts';
import { deleteHomeSection, getHomeSectionById, insertHomeSection, listHomeSectionsWithImages, updateHomeSection } from '../../db/queries/home.ts';
import { presentHomeSection } from './present.ts';

const sectionFields = {
  title: z
    .string({ error: 'The title field is required.' })
    .trim()
    .min(1, 'The title field is required.')
    .max(255, 'The title may not be greater than 255 characters.'),
  body: z.string({ error: 'The body must be text.' }).max(200_000, 'The body is too long.').default(''),
  order: z.coerce
    .number({ error: 'The order must be a number.' })
    .int('The order must be a whole number.')
    .min(-1_000_000, 'The order is out of range.')
    .max(1_000_000, 'The order is out of range.')
    .default(0),
};

const storeSchema = z.object(sectionFields);
const updateSchema = z.object({ id: idField('id'), ...sectionFields });
const deleteSchema = z.object({ id: idField('id') });
/** Room for a body of 200,000 characters even if every one is JSON-escaped (6 bytes), plus the other fields. */
const SECTION_REQUEST_LIMIT = 2 * 1024 * 1024;

export function homeRoutes(ctx: AppContext) {
  const { db, publisher } = ctx;

  return new Hono<AppEnv>()
    .get('/getSections', (c) => c.json({ sections: listHomeSectionsWithImages(db).map(presentHomeSection) }))

    .post('/store', requireAdmin, smallJsonBody(SECTION_REQUEST_LIMIT), validate('json', storeSchema), (c) => {
      const section = insertHomeSection(db, c.req.valid('json'));
      publisher.schedule(`home section ${section.id} created`);
      return c.json({ message: 'Section created.', section: presentHomeSection({ ...section, images: [] }) }, 201);
    })

    .put('/update', requireAdmin, smallJsonBody(SECTION_REQUEST_LIMIT), validate('json', updateSchema), (c) => {
      const { id, ...input } = c.req.valid('json');
      if (!getHomeSectionById(db, id)) return errorResponse(c, 404, 'This home section does not exist.');
      const section = updateHomeSection(db, id, input);
      if (!section) return errorResponse(c, 404, 'This home section does not exist.');
      publisher.schedule(`home section ${id} updated`);
      const images = listHomeSectionsWithImages(db).find((s) => s.id === id)?.images ?? [];
      return c.json({ message: 'Section updated.', section: presentHomeSection({ ...section, images }) });
    })

    .delete('/delete', requireAdmin, smallJsonBody(), validate('json', deleteSchema), (c) => {
      const { id } = c.req.valid('json');
      if (!deleteHomeSection(db, id)) return errorResponse(c, 404, 'This home section does not exist.');
      publisher.schedule(`home section ${id} deleted`);
      return c.json({ message: 'Section deleted.', id });
    });
}
