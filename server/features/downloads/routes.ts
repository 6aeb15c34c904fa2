// Software releases (docs/product/downloads.md#downloads-page, docs/product/api.md#downloads; issue 6, issue 25). Public list and detail;
// admin-only writes that schedule a publish; gated downloads, decided by decideReleaseAccess (access.ts).
// The answers are documented in docs/decisions/0008-downloads-api.md and 0048-releases-and-update-feeds.md.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { isAdmin, requireAdmin, requireVerifiedUser } from '../../auth/guards.ts';
import { allowSlowBody } from '../../http/body-deadline.ts';
import { writeTransaction } from '../../db/client.ts';
import {
  clearCurrentDownloadItems,
  countDownloadsByItem,
  countDownloadsOfItem,
  deleteDownloadItem,
  deleteReleaseFile,
  getDownloadItemById,
  getReleaseWithFiles,
  insertDownloadItem,
  insertReleaseFile,
  listDownloadItems,
  replaceReleaseFile,
  updateDownloadItem,
  type ReleaseWithFiles,
} from './queries.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, validationFailed, type FieldErrors } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, pathId } from '../../http/fields.ts';
import { removeQuietly, sweepStaleTempFiles } from '../../storage/receive-upload.ts';
import { newStoredName, uploadTempDir } from '../../storage/release-files.ts';
import { releaseFileKey } from '../../storage/object-store/index.ts';
import {
  DOWNLOADABLE_NEEDS_FILE,
  FILE_TEXT_FIELDS,
  parseFileFields,
  parseStoreFields,
  parseUpdateFields,
  readReleaseForm,
  type UploadedReleaseFile,
} from './form.ts';
import { presentRelease, presentReleaseFile } from './present.ts';
import { decideReleaseAccess, DOWNLOAD_MESSAGES } from './access.ts';
import { holderOfUser } from './holder.ts';
import { sendReleaseFile } from './send.ts';
import { signFilesSoon } from './digests.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

const idSchema = z.object({ id: idField('id') });
// Temp files younger than this may belong to an upload still running.
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
const LAST_FILE_OF_DOWNLOADABLE = 'A downloadable release needs a file: upload another one first, or make the release not downloadable.';

export function downloadsRoutes(ctx: AppContext) {
  const { db, config, log, publisher, storage } = ctx;
  const tmpDir = uploadTempDir(config);
  void sweepStaleTempFiles(tmpDir, STALE_UPLOAD_MS).then((removed) => {
    if (removed > 0) log.info(`removed ${removed} upload temp files left by an earlier run`);
  });

  const readForm = (c: Context<AppEnv>, textFields?: readonly (typeof FILE_TEXT_FIELDS)[number][]) =>
    readReleaseForm(c.req.raw, { tmpDir, maxFileBytes: config.uploadMaxBytes, textFields });
  const logRemoveFailure = (error: unknown) => log.error('a release file could not be removed', error);
  const idOf = (c: Context<AppEnv>, name = 'id') => pathId(c.req.param(name));
  const findItem = (id: number) => (Number.isSafeInteger(id) ? getDownloadItemById(db, id) : undefined);
  const findRelease = (id: number) => (Number.isSafeInteger(id) ? getReleaseWithFiles(db, id) : undefined);
  const countOf = (c: Context<AppEnv>, id: number) => (isAdmin(c.get('user')) ? countDownloadsOfItem(db, id) : undefined);

  /**
   * Stores the upload under a fresh name (docs/decisions/0050-object-storage.md): the object first, then the
   * caller commits the row, so no request ever finds a row without its file; a commit that fails or finds
   * nothing to attach it to takes the object back out (removePlaced). The store takes over the temp file.
   */
  const placeFile = async (file: UploadedReleaseFile | null) => {
    if (!file) return null;
    const storedName = newStoredName();
    const key = releaseFileKey(storedName);
    await storage.putFile(key, file.tempPath, file.size, { contentType: 'application/octet-stream' });
    return { key, columns: { name: file.filename, stored_name: storedName, size: file.size, sha256: file.sha256, sha512: file.sha512 } };
  };
  const removeObject = async (storedName: string) => {
    try {
      await storage.delete(releaseFileKey(storedName));
    } catch (error) {
      logRemoveFailure(error);
    }
  };
  const removePlaced = async (placed: { key: string } | null) => {
    if (placed) await storage.delete(placed.key).catch(logRemoveFailure);
  };

  const download = async (c: Context<AppEnv>, id: number, fileId?: number) => {
    const user = c.get('user');
    const access = decideReleaseAccess(holderOfUser(ctx, user), findRelease(id), fileId);
    if (!access.ok) return c.json(access.code ? { message: access.message, code: access.code } : { message: access.message }, access.status);
    // decideReleaseAccess allows nobody without a user here.
    return sendReleaseFile(c, ctx, access.file, { kind: 'user', userId: user!.id });
  };

  return (
    new Hono<AppEnv>()
      .get('/getSections', (c) => {
        const counts = isAdmin(c.get('user')) ? countDownloadsByItem(db) : null;
        return c.json({ sections: listDownloadItems(db).map((item) => presentRelease(item, counts ? (counts.get(item.id) ?? 0) : undefined)) });
      })

      .post('/store', requireAdmin, allowSlowBody, async (c) => {
        const form = await readForm(c);
        try {
          const parsed = parseStoreFields(form);
          if (!parsed.ok) return validationFailed(c, parsed.errors);
          const { released_at, ...input } = parsed.input;
          const placed = await placeFile(form.file);
          let release: ReleaseWithFiles;
          try {
            release = writeTransaction(db, () => {
              if (input.is_current === 1) clearCurrentDownloadItems(db);
              const created = insertDownloadItem(db, { ...input, released_at: released_at ?? new Date(ctx.now()).toISOString() });
              const files = placed ? [insertReleaseFile(db, { ...placed.columns, download_item_id: created.id, platform: 'any', arch: 'universal' })] : [];
              const withFiles = { ...created, files };
              // Published means downloadable: the shop and CRM hear of a release customers can get (docs/integrations.md#events).
              if (created.downloadable === 1) recordWebhookEvent(ctx, 'release.published', presentRelease(withFiles), ctx.now());
              return withFiles;
            });
          } catch (error) {
            await removePlaced(placed);
            throw error;
          }
          publisher.schedule(`download ${release.id} created`);
          if (placed) signFilesSoon(ctx);
          return c.json({ message: 'Release created.', release: presentRelease(release, 0) }, 201);
        } finally {
          // Gone already when the store took it over.
          if (form.file) await removeQuietly(form.file.tempPath);
        }
      })

      .post('/update/:id{[0-9]+}', requireAdmin, allowSlowBody, async (c) => {
        const id = idOf(c);
        // Checked before reading a body that may be gigabytes long, and again in the transaction.
        if (!findItem(id)) return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
        const form = await readForm(c);
        try {
          const parsed = parseUpdateFields(form);
          if (!parsed.ok) return validationFailed(c, parsed.errors);
          const { input } = parsed;
          const placed = await placeFile(form.file);
          type Outcome =
            { kind: 'missing' } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'updated'; release: ReleaseWithFiles; replaced: ReleaseFile | null };
          let outcome: Outcome;
          try {
            outcome = writeTransaction(db, (): Outcome => {
              const previous = getReleaseWithFiles(db, id);
              if (!previous) return { kind: 'missing' };
              const downloadable = input.downloadable ?? previous.downloadable;
              if (downloadable === 1 && !placed && previous.files.length === 0) return { kind: 'invalid', errors: { file: [DOWNLOADABLE_NEEDS_FILE] } };
              if (input.is_current === 1) clearCurrentDownloadItems(db, id);
              const item = updateDownloadItem(db, id, input);
              if (!item) return { kind: 'missing' };
              // The form's `file` is the release's first file (any, universal): new bytes in its row.
              const first = previous.files[0];
              let replaced: ReleaseFile | null = null;
              if (placed && first) replaced = replaceReleaseFile(db, first.id, { ...placed.columns, platform: 'any', arch: 'universal' }) ?? null;
              else if (placed) insertReleaseFile(db, { ...placed.columns, download_item_id: id, platform: 'any', arch: 'universal' });
              const release = getReleaseWithFiles(db, id) ?? { ...item, files: [] };
              if (item.downloadable === 1 && previous.downloadable !== 1) recordWebhookEvent(ctx, 'release.published', presentRelease(release), ctx.now());
              return { kind: 'updated', release, replaced };
            });
          } catch (error) {
            await removePlaced(placed);
            throw error;
          }
          if (outcome.kind !== 'updated') {
            await removePlaced(placed);
            return outcome.kind === 'invalid' ? validationFailed(c, outcome.errors) : errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
          }
          // The old file goes once the row no longer names it (a local download already under way keeps
          // reading it: the open handle outlives the unlink; a bucket link issued before now stops working).
          if (outcome.replaced) await removeObject(outcome.replaced.stored_name);
          publisher.schedule(`download ${id} updated`);
          if (placed) signFilesSoon(ctx);
          return c.json({ message: 'Release updated.', release: presentRelease(outcome.release, countDownloadsOfItem(db, id)) });
        } finally {
          if (form.file) await removeQuietly(form.file.tempPath);
        }
      })

      .delete('/delete', requireAdmin, smallJsonBody(), validate('json', idSchema), async (c) => {
        const { id } = c.req.valid('json');
        const deleted = writeTransaction(db, () => deleteDownloadItem(db, id));
        if (!deleted) return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
        // After the rows are gone, so no request can find a row and miss its file.
        for (const file of deleted.files) await removeObject(file.stored_name);
        publisher.schedule(`download ${id} deleted`);
        return c.json({ message: 'Release deleted.', id });
      })

      // Issue 25 item 2: another file of a release, for a platform and architecture.
      .post('/:id{[0-9]+}/files', requireAdmin, allowSlowBody, async (c) => {
        const id = idOf(c);
        if (!findItem(id)) return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
        const form = await readForm(c, FILE_TEXT_FIELDS);
        try {
          const parsed = parseFileFields(form);
          if (!parsed.ok) return validationFailed(c, parsed.errors);
          const { file, platform, arch } = parsed.input;
          const placed = await placeFile(file);
          let created: ReleaseFile | undefined;
          try {
            created = writeTransaction(db, () =>
              getDownloadItemById(db, id) ? insertReleaseFile(db, { ...placed!.columns, download_item_id: id, platform, arch }) : undefined,
            );
          } catch (error) {
            await removePlaced(placed);
            throw error;
          }
          if (!created) {
            await removePlaced(placed);
            return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
          }
          publisher.schedule(`download ${id}: file added`);
          signFilesSoon(ctx);
          return c.json({ file: presentReleaseFile(created) }, 201);
        } finally {
          if (form.file) await removeQuietly(form.file.tempPath);
        }
      })

      .delete('/:id{[0-9]+}/files/:fileId{[0-9]+}', requireAdmin, async (c) => {
        const id = idOf(c);
        const fileId = idOf(c, 'fileId');
        type Outcome = { kind: 'missing' } | { kind: 'last' } | { kind: 'deleted'; file: ReleaseFile };
        const outcome = writeTransaction(db, (): Outcome => {
          const release = findRelease(id);
          if (!release || !release.files.some((file) => file.id === fileId)) return { kind: 'missing' };
          if (release.downloadable === 1 && release.files.length === 1) return { kind: 'last' };
          const file = deleteReleaseFile(db, id, fileId);
          return file ? { kind: 'deleted', file } : { kind: 'missing' };
        });
        if (outcome.kind === 'missing') return errorResponse(c, 404, DOWNLOAD_MESSAGES.fileNotFound);
        if (outcome.kind === 'last') return validationFailed(c, { file: [LAST_FILE_OF_DOWNLOADABLE] });
        // After the row, as for a whole release.
        await removeObject(outcome.file.stored_name);
        publisher.schedule(`download ${id}: file removed`);
        return c.json({ message: 'File deleted.', id: fileId });
      })

      // The permission guard runs before the body is even read: anonymous and unverified callers get
      // the exact messages of docs/product/roles.md#answers whatever they send.
      .post('/download', requireVerifiedUser, smallJsonBody(), validate('json', idSchema), (c) => download(c, c.req.valid('json').id))

      // The GET-able form of the same gated download, for links, the browser's own resume and
      // `curl -C -`: the first file, or one file of the release. Registered before `/:id`.
      .get('/file/:id{[0-9]+}', (c) => download(c, idOf(c)))
      .get('/file/:id{[0-9]+}/:fileId{[0-9]+}', (c) => download(c, idOf(c), idOf(c, 'fileId')))

      .get('/:id{[0-9]+}', (c) => {
        const release = findRelease(idOf(c));
        if (!release) return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
        return c.json({ release: presentRelease(release, countOf(c, release.id)) });
      })
  );
}

/** The downloads feature as server/app.ts mounts it: releases and their downloads, at full paths. */
export function downloadsFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/downloads', downloadsRoutes(ctx));
}
