// Extra files of one post namespace (docs/product/reading.md#posts-screens files manager, docs/product/api.md#extra-files), mounted at
// /api/<ns>/extrafiles: the files an admin attaches to posts as their download. Listing, uploading and
// deleting are admin-only; downloading needs a verified user (docs/product/roles.md) and, for anyone but an admin,
// a file attached to a published post. Uploads stream to disk; a file still attached to a post is never
// deleted. Every successful write schedules a publish (posts show the file's name and description).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { isAdmin, requireAdmin } from '../../auth/guards.ts';
import { allowSlowBody } from '../../http/body-deadline.ts';
import { writeTransaction } from '../../db/client.ts';
import { deleteUploadedFiles, getUploadedFile, getUploadedFiles, insertUploadedFile, listUploadedFiles } from './queries.ts';
import { NAMESPACES, type Namespace, type UploadedFile } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { parseFields, readFields } from '../../http/form-or-json.ts';
import { idField, idListField } from '../../http/fields.ts';
import { readExtraFileForm, removeStoredFiles, storeExtraFile, storedFileKey } from './storage.ts';
import { removeQuietly } from '../../storage/receive-upload.ts';
import { sendStoredFile } from '../../storage/send-stored-file.ts';
import { uploadTempDir } from '../../storage/release-files.ts';
import { isFileAttachedToPublishedPost, listPostsAttachedToFiles } from './queries.ts';
import { afterPublish } from '../../publish/after-publish.ts';
import { optionalText } from '../../http/fields.ts';
import { FILE_NOT_SELECTED } from '../../storage/upload-form.ts';
import { presentUploadedFile, type PostRef } from './present.ts';

export const EXTRA_FILE_MESSAGES = {
  /** docs/product/roles.md, exact texts. */
  anonymousTutorials: 'You must be logged in to download tutorial materials',
  anonymous: 'You must be logged in to use download',
  unverified: 'Only verified user can use download!',
  /** Also what a non-admin gets for a file no published post offers: nothing to learn from trying ids. */
  notFound: 'This file does not exist.',
  missingOnDisk: 'The file is missing on the server. Please tell the site admin.',
} as const;

const descriptionSchema = z.object({ description: optionalText('description', 1000).default('') });
const deleteSchema = z.object({ ids: idListField('ids', 'Nothing selected!') });
const downloadSchema = z.object({ id: idField('id') });

export function extraFilesRoutes(ctx: AppContext, namespace: Namespace) {
  const { db, publisher, config, storage } = ctx;

  const attachedPosts = (ids: number[]) => {
    const byFile = new Map<number, PostRef[]>();
    for (const post of listPostsAttachedToFiles(db, ids)) {
      const list = byFile.get(post.uploaded_file_id) ?? [];
      list.push({ id: post.id, title: post.title, title_slug: post.title_slug, published: post.published });
      byFile.set(post.uploaded_file_id, list);
    }
    return byFile;
  };

  return (
    new Hono<AppEnv>()
      .get('/', requireAdmin, (c) => {
        const files = listUploadedFiles(db, namespace);
        const posts = attachedPosts(files.map((file) => file.id));
        return c.json({ files: files.map((file) => presentUploadedFile(file, posts.get(file.id) ?? [])) });
      })

      // multipart: file, description. No bodyLimit middleware: it would buffer a chunked body in
      // memory; readExtraFileForm checks Content-Length first and counts the streamed bytes itself.
      .post('/', requireAdmin, allowSlowBody, async (c) => {
        const form = await readExtraFileForm(c.req.raw, { tmpDir: uploadTempDir(config), maxFileBytes: config.uploadMaxBytes });
        const received = form.file;
        try {
          const { description } = parseFields(descriptionSchema, { description: form.description });
          if (!received) throw new HttpError(422, FILE_NOT_SELECTED, { file: [FILE_NOT_SELECTED] });
          if (received.size === 0) throw new HttpError(422, 'The file must not be empty.', { file: ['The file must not be empty.'] });
          // The object first, then the row: a failed insert removes the object (docs/decisions/0050-object-storage.md).
          const placed = await storeExtraFile(storage, namespace, received);
          let file: UploadedFile;
          try {
            file = insertUploadedFile(db, namespace, {
              filename: received.filename,
              stored_name: placed.storedName,
              description,
              mime_type: received.mime_type,
              size: received.size,
              sha256: received.sha256,
            });
          } catch (error) {
            await removeStoredFiles(storage, namespace, [placed.storedName], (failure) => ctx.log.warn('extra file not removed', failure));
            throw error;
          }
          publisher.schedule(`${namespace} file ${file.id} uploaded`);
          return c.json({ message: 'File uploaded.', file: presentUploadedFile(file, []) }, 201);
        } finally {
          // Gone already when it was stored (or its put failed); otherwise this upload failed: leave nothing.
          if (received) await removeQuietly(received.tempPath);
        }
      })

      .delete('/', requireAdmin, smallJsonBody(), async (c) => {
        const { ids } = parseFields(deleteSchema, await readFields(c));
        const outcome = writeTransaction(db, () => {
          const files = getUploadedFiles(db, namespace, ids);
          const attached = attachedPosts(files.map((file) => file.id));
          if (attached.size > 0) return { attached, files };
          deleteUploadedFiles(
            db,
            namespace,
            files.map((file) => file.id),
          );
          return { attached, files };
        });
        if (outcome.attached.size > 0) {
          const report = outcome.files
            .filter((file) => outcome.attached.has(file.id))
            .map((file) => {
              const posts = outcome.attached.get(file.id) ?? [];
              return {
                id: file.id,
                filename: file.filename,
                posts,
                message: `"${file.filename}" is attached to ${posts.map((post) => `the post "${post.title}"`).join(', ')}.`,
              };
            });
          const message = `${report.map((entry) => entry.message).join(' ')} Choose another file (or No file) for ${report.length === 1 && (report[0]?.posts.length ?? 0) === 1 ? 'that post' : 'those posts'} first; nothing was deleted.`;
          return c.json({ message, report }, 409);
        }
        if (outcome.files.length === 0) return errorResponse(c, 404, ids.length === 1 ? 'This file does not exist.' : 'None of the selected files exist.');
        const deletedIds = outcome.files.map((file) => file.id);
        publisher.schedule(`${namespace} files ${deletedIds.join(', ')} deleted`);
        const storedNames = outcome.files.map((file) => file.stored_name);
        afterPublish(ctx, `${namespace} extra files`, () =>
          removeStoredFiles(storage, namespace, storedNames, (error) => ctx.log.warn('extra file not removed', error)),
        );
        return c.json({ message: outcome.files.length === 1 ? 'File deleted.' : `${outcome.files.length} files deleted.`, ids: deletedIds });
      })

      // POST (docs/product/api.md) with the id in the body; answers the bytes, the name in `filename` and Content-Disposition.
      .post('/download', smallJsonBody(), async (c) => {
        const user = c.get('user');
        if (!user) return errorResponse(c, 401, namespace === 'tutorials' ? EXTRA_FILE_MESSAGES.anonymousTutorials : EXTRA_FILE_MESSAGES.anonymous);
        if (!user.email_verified_at) return errorResponse(c, 403, EXTRA_FILE_MESSAGES.unverified);
        const { id } = parseFields(downloadSchema, await readFields(c));
        const file = getUploadedFile(db, namespace, id);
        if (!file || (!isAdmin(user) && !isFileAttachedToPublishedPost(db, namespace, id))) return errorResponse(c, 404, EXTRA_FILE_MESSAGES.notFound);
        const key = storedFileKey(namespace, file.stored_name);
        if (!key) {
          ctx.log.error(`${namespace} file ${id}: bad stored name ${JSON.stringify(file.stored_name)}`);
          return errorResponse(c, 404, EXTRA_FILE_MESSAGES.missingOnDisk);
        }
        return sendStoredFile(c, ctx, key, {
          filename: file.filename,
          sha256: file.sha256,
          label: `${namespace} file ${id}`,
          missingMessage: EXTRA_FILE_MESSAGES.missingOnDisk,
        });
      })
  );
}

/** The files feature as server/app.ts mounts it: each namespace's extra files, at full paths. */
export function filesFeature(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  for (const namespace of NAMESPACES) app.route(`/api/${namespace}/extrafiles`, extraFilesRoutes(ctx, namespace));
  return app;
}
