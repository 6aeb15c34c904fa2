// The image library of one post namespace (docs/product/reading.md#posts-screens image manager, docs/product/api.md#images), mounted at /api/<ns>.
// Admin-only, reads included: images uploaded for a draft must not be listed to the public. Uploads are
// sniffed, re-encoded and stored as variants (server/features/images/storage.ts); a YouTube link makes a video
// item. An image still shown by a page is never deleted silently, and replacing one rewrites the pages
// that show it. Every successful write schedules a publish. Answers: docs/content-api.md.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { allowSlowBody } from '../../http/body-deadline.ts';
import { writeTransaction } from '../../db/client.ts';
import { deleteUploadedImages, getUploadedImage, getUploadedImages, insertUploadedImage, listUploadedImages, updateUploadedImage } from './queries.ts';
import { NAMESPACES, type Namespace, type UploadedImage } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { parseFields, readFields } from '../../http/form-or-json.ts';
import { pathId } from '../../http/fields.ts';
import { FALLBACK_OF, PAGE_IMAGE_VARIANTS, removeMediaFiles } from './storage.ts';
import { youTubeEmbedUrl, youTubeVideoId } from './video-links.ts';
import { replaceImageFile } from './image-replace.ts';
import {
  describeUsage,
  findImageUsage,
  imageBodyLimit,
  isUsed,
  readBulkDelete,
  readDeleteForce,
  readImageForm,
  storeUploadedImage,
  urlsOf,
  type ImageUsage,
} from './upload.ts';
import { afterPublish } from '../../publish/after-publish.ts';
import { nowIso } from '../../db/timestamps.ts';
import { optionalText } from '../../http/fields.ts';
import { fileNotSelected } from '../../storage/upload-form.ts';
import { presentUploadedImage } from './present.ts';

export const NOT_A_VIDEO_LINK = 'The link is not a YouTube video link.';

const detailsSchema = z.object({ title: optionalText('title', 255).optional(), alt: optionalText('alt', 255).optional() });
const uploadSchema = detailsSchema.extend({ video_url: z.string({ error: NOT_A_VIDEO_LINK }).max(2048, NOT_A_VIDEO_LINK).optional() });

/** A title from the file's name ("gauge-r-r.png" → "gauge-r-r") when the admin gave none. */
function titleFromFileName(name: string): string {
  return (name.split(/[/\\]/).pop() ?? '').replace(/\.[^.]*$/, '').slice(0, 255);
}

interface DeleteReport {
  id: number;
  message: string;
  used_in?: ImageUsage;
}

export function imagesRoutes(ctx: AppContext, namespace: Namespace) {
  const { db, publisher } = ctx;
  const present = presentUploadedImage;

  const deleteImages = async (c: Context<AppEnv>, ids: number[], force: boolean) => {
    const outcome = writeTransaction(db, () => {
      const rows = getUploadedImages(db, namespace, ids);
      const report: DeleteReport[] = ids.filter((id) => !rows.some((row) => row.id === id)).map((id) => ({ id, message: 'This image does not exist.' }));
      const inUse: DeleteReport[] = [];
      for (const row of rows) {
        const usage = findImageUsage(db, urlsOf(row.image_url));
        if (isUsed(usage)) inUse.push({ id: row.id, message: `"${row.title || row.id}" is used in ${describeUsage(usage)}.`, used_in: usage });
      }
      if (inUse.length > 0 && !force) return { refused: inUse, report };
      deleteUploadedImages(
        db,
        namespace,
        rows.map((row) => row.id),
      );
      return { deleted: rows, report: [...report, ...inUse] };
    });
    if (outcome.refused) {
      const first = outcome.refused[0] as DeleteReport;
      const message =
        ids.length === 1
          ? `This image is still used: ${first.message} Remove it from there first, or delete it with force.`
          : `${outcome.refused.length} of the selected images are still used; nothing was deleted. Remove them from those pages first, or delete with force.`;
      return c.json({ message, report: [...outcome.refused, ...outcome.report] }, 409);
    }
    const deleted = outcome.deleted;
    if (deleted.length === 0) return errorResponse(c, 404, ids.length === 1 ? 'This image does not exist.' : 'None of the selected images exist.');
    publisher.schedule(`${namespace} images ${deleted.map((row) => row.id).join(', ')} deleted`);
    const urls = deleted.flatMap((row) => urlsOf(row.image_url));
    afterPublish(ctx, `${namespace} image files`, () => removeMediaFiles(ctx.storage, urls, (error) => ctx.log.warn('image file not removed', error)));
    return c.json({
      message: deleted.length === 1 ? 'Image deleted.' : `${deleted.length} images deleted.`,
      ids: deleted.map((row) => row.id),
      report: outcome.report,
    });
  };

  return (
    new Hono<AppEnv>()
      .get('/images', requireAdmin, (c) => c.json({ images: listUploadedImages(db, namespace).map(present) }))

      // multipart `file` (+ title, alt), or `video_url` (form or JSON) for a YouTube video item.
      .post('/images', requireAdmin, allowSlowBody, imageBodyLimit(ctx), async (c) => {
        const form = await readImageForm(c);
        const input = parseFields(uploadSchema, form.fields);
        if (!form.file && input.video_url !== undefined && input.video_url.trim() !== '') {
          const videoId = youTubeVideoId(input.video_url);
          if (!videoId) throw new HttpError(422, NOT_A_VIDEO_LINK, { video_url: [NOT_A_VIDEO_LINK] });
          const image = insertUploadedImage(db, namespace, {
            title: input.title || `YouTube video ${videoId}`,
            alt: input.alt ?? '',
            image_url: JSON.stringify({ video: youTubeEmbedUrl(videoId) }),
            sizes: '{}',
            is_video: 1,
          });
          publisher.schedule(`${namespace} video ${image.id} added`);
          return c.json({ message: 'Video added.', image: present(image) }, 201);
        }
        if (!form.file) throw fileNotSelected();
        const stored = await storeUploadedImage(ctx, namespace, form.file, PAGE_IMAGE_VARIANTS, FALLBACK_OF);
        let image: UploadedImage;
        try {
          image = insertUploadedImage(db, namespace, {
            title: input.title || titleFromFileName(form.file.name),
            alt: input.alt ?? '',
            image_url: JSON.stringify(stored.urls),
            sizes: JSON.stringify(stored.sizes),
            is_video: 0,
          });
        } catch (error) {
          await removeMediaFiles(ctx.storage, Object.values(stored.urls));
          throw error;
        }
        publisher.schedule(`${namespace} image ${image.id} uploaded`);
        return c.json({ message: 'Image uploaded.', image: present(image) }, 201);
      })

      // Replaces the file (server/features/images/image-replace.ts); videos have none.
      .post('/image/update-image/:id{[0-9]+}', requireAdmin, allowSlowBody, imageBodyLimit(ctx), async (c) => {
        const id = pathId(c.req.param('id'));
        const existing = getUploadedImage(db, namespace, id);
        if (!existing) return errorResponse(c, 404, 'This image does not exist.');
        if (existing.is_video) return errorResponse(c, 422, 'A video item has no file to replace; delete it and add a new one.');
        const form = await readImageForm(c);
        if (!form.file) throw fileNotSelected();
        const result = await replaceImageFile(ctx, form.file, {
          route: namespace,
          label: `${namespace} image ${id}`,
          variants: PAGE_IMAGE_VARIANTS,
          fallbackVariant: FALLBACK_OF,
          makesFallback: true,
          currentUrls: () => getUploadedImage(db, namespace, id)?.image_url,
          save: (stored, at) =>
            updateUploadedImage(db, namespace, id, {
              image_url: JSON.stringify(stored.urls),
              sizes: JSON.stringify(stored.sizes),
              updated_at: at,
            }) as UploadedImage,
        });
        if (!result) return errorResponse(c, 404, 'This image does not exist.');
        return c.json({ message: 'Image replaced.', image: present(result.image), updated_posts: result.posts, updated_home_sections: result.homeSections });
      })

      .put('/image/update/:id{[0-9]+}', requireAdmin, smallJsonBody(), async (c) => {
        const id = pathId(c.req.param('id'));
        const input = parseFields(detailsSchema, await readFields(c));
        const changes = { ...(input.title !== undefined ? { title: input.title } : {}), ...(input.alt !== undefined ? { alt: input.alt } : {}) };
        const image = updateUploadedImage(db, namespace, id, { ...changes, updated_at: nowIso(ctx) });
        if (!image) return errorResponse(c, 404, 'This image does not exist.');
        publisher.schedule(`${namespace} image ${id} details updated`);
        return c.json({ message: 'Image details saved.', image: present(image) });
      })

      .delete('/images/:id{[0-9]+}', requireAdmin, smallJsonBody(), async (c) => {
        return deleteImages(c, [pathId(c.req.param('id'))], await readDeleteForce(c));
      })

      .on('DELETE', ['/images', '/images/'], requireAdmin, smallJsonBody(), async (c) => {
        const { ids, force } = await readBulkDelete(c);
        return deleteImages(c, ids, force);
      })
  );
}

/** The images feature as server/app.ts mounts it: each namespace's image library, at full paths. */
export function imagesFeature(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  for (const namespace of NAMESPACES) app.route(`/api/${namespace}`, imagesRoutes(ctx, namespace));
  return app;
}
