// Home sections (docs/product/reading.md#home, docs/product/api.md#home): public read, admin-only writes; every write republishes.
//
// The home page's image library (docs/product/reading.md#home image manager, docs/product/api.md#home), mounted at /api/home beside
// the home sections router. Images carry the thumb and lg variants of HOME_IMAGE_VARIANTS and belong to
// one section's slideshow or to none (home_section_id 0). The generic image paths of docs/product/api.md
// 'Images' with route "home" act on this same library, so the home page has one set of images.
// Writes are admin-only and schedule a publish. Answers: docs/content-api.md.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin, isAdmin } from '../../auth/guards.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, flagFieldOr, nullableIdField, pathId } from '../../http/fields.ts';
import {
  deleteHomeSection,
  getHomeSectionById,
  insertHomeSection,
  updateHomeSection,
  deleteHomeImages,
  getHomeImageById,
  getHomeImagesByIds,
  insertHomeImage,
  listHomeImages,
  nextHomeImageOrder,
  updateHomeImage,
} from './queries.ts';
import { presentHomeSection, presentHomeImage } from './present.ts';
import { writeTransaction } from '../../db/client.ts';
import type { HomeImage } from '../../db/schema.ts';
import { parseFields, readFields, unprocessable } from '../../http/form-or-json.ts';
import {
  describeUsage,
  findImageUsage,
  imageBodyLimit,
  isUsed,
  readBulkDelete,
  readDeleteForce,
  readImageForm,
  removeMediaFiles,
  replaceImageFile,
  storeUploadedImage,
  urlsOf,
  type ImageUsage,
} from '../images/index.ts';
import { afterPublish } from '../../publish/after-publish.ts';
import { nowIso } from '../../db/timestamps.ts';
import { optionalText } from '../../http/fields.ts';
import { fileNotSelected } from '../../storage/upload-form.ts';
import { listHomeSectionsWithImages } from '../../db/queries/content-snapshot.ts';
import { HOME_IMAGE_VARIANTS } from './queries.ts';

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

const ROUTE = 'home';

/** 0 (or nothing) means "not assigned to a section". */
const sectionIdField = nullableIdField('home section').transform((id) => id ?? 0);
const details = { title: optionalText('title', 255).optional(), alt: optionalText('alt', 255).optional() };
const detailsSchema = z.object(details);
const uploadSchema = z.object({ ...details, home_section_id: sectionIdField, video_url: z.unknown().optional() });
const imageUpdateSchema = z.object({ id: idField('id'), ...details });
const moveSchema = z.object({ id: idField('id'), home_section_id: sectionIdField, current_section_id: sectionIdField.optional() });
const deleteOneSchema = z.object({ id: idField('id'), current_section_id: sectionIdField.optional(), force: flagFieldOr('force', 0) });

export function homeImagesRoutes(ctx: AppContext) {
  const { db, publisher } = ctx;
  const present = presentHomeImage;
  const imagesOf = (sectionId: number | undefined) => (sectionId === undefined ? undefined : listHomeImages(db, sectionId).map(present));

  const checkSection = (sectionId: number) => {
    if (sectionId !== 0 && !getHomeSectionById(db, sectionId)) throw unprocessable({ home_section_id: ['The selected home section is invalid.'] });
  };

  const upload = async (c: Context<AppEnv>) => {
    const form = await readImageForm(c);
    const input = parseFields(uploadSchema, form.fields);
    if (!form.file && typeof input.video_url === 'string' && input.video_url.trim() !== '') {
      throw new HttpError(422, 'The home slideshow shows images only.', { video_url: ['The home slideshow shows images only.'] });
    }
    if (!form.file) throw fileNotSelected();
    checkSection(input.home_section_id);
    const stored = await storeUploadedImage(ctx, ROUTE, form.file, HOME_IMAGE_VARIANTS);
    let image: HomeImage;
    try {
      image = writeTransaction(db, () => {
        checkSection(input.home_section_id);
        const title = input.title || (form.file?.name.split(/[/\\]/).pop() ?? '').replace(/\.[^.]*$/, '').slice(0, 255);
        return insertHomeImage(db, {
          title,
          alt: input.alt ?? '',
          urls: JSON.stringify(stored.urls),
          sizes: JSON.stringify(stored.sizes),
          home_section_id: input.home_section_id,
          order: nextHomeImageOrder(db, input.home_section_id),
        });
      });
    } catch (error) {
      await removeMediaFiles(ctx.storage, Object.values(stored.urls));
      throw error;
    }
    publisher.schedule(`home image ${image.id} uploaded`);
    return c.json({ message: 'Image uploaded.', image: present(image), images: imagesOf(image.home_section_id) }, 201);
  };

  const saveDetails = (c: Context<AppEnv>, id: number, input: { title?: string; alt?: string }) => {
    const changes = { ...(input.title !== undefined ? { title: input.title } : {}), ...(input.alt !== undefined ? { alt: input.alt } : {}) };
    const image = updateHomeImage(db, id, { ...changes, updated_at: nowIso(ctx) });
    if (!image) return errorResponse(c, 404, 'This image does not exist.');
    publisher.schedule(`home image ${id} details updated`);
    return c.json({ message: 'Image details saved.', image: present(image) });
  };

  const deleteImages = (c: Context<AppEnv>, ids: number[], force: boolean, currentSectionId?: number) => {
    const outcome = writeTransaction(db, () => {
      const rows = getHomeImagesByIds(db, ids);
      const missing = ids.filter((id) => !rows.some((row) => row.id === id)).map((id) => ({ id, message: 'This image does not exist.' }));
      const inUse: { id: number; message: string; used_in: ImageUsage }[] = [];
      for (const row of rows) {
        const usage = findImageUsage(db, urlsOf(row.urls));
        if (isUsed(usage)) inUse.push({ id: row.id, message: `"${row.title || row.id}" is used in ${describeUsage(usage)}.`, used_in: usage });
      }
      if (inUse.length > 0 && !force) return { refused: inUse, report: missing };
      deleteHomeImages(
        db,
        rows.map((row) => row.id),
      );
      return { deleted: rows, report: [...missing, ...inUse] };
    });
    if (outcome.refused) {
      const message =
        ids.length === 1
          ? `This image is still used: ${outcome.refused[0]?.message} Remove it from there first, or delete it with force.`
          : `${outcome.refused.length} of the selected images are still used; nothing was deleted. Remove them from those pages first, or delete with force.`;
      return c.json({ message, report: [...outcome.refused, ...outcome.report] }, 409);
    }
    const deleted = outcome.deleted;
    if (deleted.length === 0) return errorResponse(c, 404, ids.length === 1 ? 'This image does not exist.' : 'None of the selected images exist.');
    publisher.schedule(`home images ${deleted.map((row) => row.id).join(', ')} deleted`);
    const urls = deleted.flatMap((row) => urlsOf(row.urls));
    // The live home page shows these until the new build is in: remove the files after the publish.
    afterPublish(ctx, 'home image files', () => removeMediaFiles(ctx.storage, urls, (error) => ctx.log.warn('image file not removed', error)));
    return c.json({
      message: deleted.length === 1 ? 'Image deleted.' : `${deleted.length} images deleted.`,
      id: deleted.length === 1 ? deleted[0]?.id : undefined,
      ids: deleted.map((row) => row.id),
      report: outcome.report,
      images: imagesOf(currentSectionId),
    });
  };

  return (
    new Hono<AppEnv>()
      // Every home image, assigned or not (the manager assigns them): admin only.
      .get('/images', requireAdmin, (c) => c.json({ images: listHomeImages(db).map(present) }))

      // A section's slideshow is public (it is on the home page); the unassigned images (0) are not.
      .get('/section/:id{[0-9]+}/images', (c) => sectionImages(c))
      .get('/section/:id{[0-9]+}/images/', (c) => sectionImages(c))

      .post('/store/images', requireAdmin, imageBodyLimit(ctx), upload)
      .post('/images', requireAdmin, imageBodyLimit(ctx), upload)

      .post('/image/update-image/:id{[0-9]+}', requireAdmin, imageBodyLimit(ctx), async (c) => {
        const id = pathId(c.req.param('id'));
        if (!getHomeImageById(db, id)) return errorResponse(c, 404, 'This image does not exist.');
        const form = await readImageForm(c);
        if (!form.file) throw fileNotSelected();
        const result = await replaceImageFile(ctx, form.file, {
          route: ROUTE,
          label: `home image ${id}`,
          variants: HOME_IMAGE_VARIANTS,
          fallbackVariant: 'lg',
          makesFallback: false,
          currentUrls: () => getHomeImageById(db, id)?.urls,
          save: (stored, at) =>
            updateHomeImage(db, id, { urls: JSON.stringify(stored.urls), sizes: JSON.stringify(stored.sizes), updated_at: at }) as HomeImage,
        });
        if (!result) return errorResponse(c, 404, 'This image does not exist.');
        return c.json({ message: 'Image replaced.', image: present(result.image) });
      })

      .put('/images/update', requireAdmin, smallJsonBody(), async (c) => {
        const { id, ...input } = parseFields(imageUpdateSchema, await readFields(c));
        return saveDetails(c, id, input);
      })
      .put('/image/update/:id{[0-9]+}', requireAdmin, smallJsonBody(), async (c) => {
        const input = parseFields(detailsSchema, await readFields(c));
        return saveDetails(c, pathId(c.req.param('id')), input);
      })

      // Assigns an image to a section's slideshow (last in it), or unassigns it with 0.
      .put('/images/update/section', requireAdmin, smallJsonBody(), async (c) => {
        const { id, home_section_id: sectionId, current_section_id: currentSectionId } = parseFields(moveSchema, await readFields(c));
        const image = writeTransaction(db, () => {
          const existing = getHomeImageById(db, id);
          if (!existing) return undefined;
          checkSection(sectionId);
          if (existing.home_section_id === sectionId) return existing;
          return updateHomeImage(db, id, { home_section_id: sectionId, order: nextHomeImageOrder(db, sectionId), updated_at: nowIso(ctx) });
        });
        if (!image) return errorResponse(c, 404, 'This image does not exist.');
        publisher.schedule(`home image ${id} moved to section ${sectionId}`);
        return c.json({
          message: sectionId === 0 ? 'Image removed from the section.' : 'Image assigned to the section.',
          image: present(image),
          images: imagesOf(currentSectionId),
        });
      })

      .delete('/delete/image', requireAdmin, smallJsonBody(), async (c) => {
        const { id, current_section_id: currentSectionId, force } = parseFields(deleteOneSchema, { force: c.req.query('force'), ...(await readFields(c)) });
        return deleteImages(c, [id], force === 1, currentSectionId);
      })
      .delete('/images/:id{[0-9]+}', requireAdmin, smallJsonBody(), async (c) => {
        return deleteImages(c, [pathId(c.req.param('id'))], await readDeleteForce(c));
      })
      .on('DELETE', ['/images', '/images/'], requireAdmin, smallJsonBody(), async (c) => {
        const { ids, force } = await readBulkDelete(c);
        return deleteImages(c, ids, force);
      })
  );

  function sectionImages(c: Context<AppEnv>) {
    const id = Number(c.req.param('id'));
    if (id === 0 && !isAdmin(c.get('user'))) return errorResponse(c, c.get('user') ? 403 : 401, 'This action is unauthorized.');
    if (id !== 0 && !getHomeSectionById(db, id)) return errorResponse(c, 404, 'This home section does not exist.');
    return c.json({ images: listHomeImages(db, id).map(present), section_id: id });
  }
}

/** The home feature as server/app.ts mounts it: the home page's sections and their images, at full paths. */
export function homeFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/home', homeRoutes(ctx)).route('/api/home', homeImagesRoutes(ctx));
}
