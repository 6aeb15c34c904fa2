// Software releases (docs/product/downloads.md#downloads-page, docs/product/api.md#downloads; issue 6). Public list and detail; admin-only writes
// that schedule a publish; gated downloads for verified users (downloadable releases) and admins (any).
// The answers are documented in docs/decisions/0008-downloads-api.md.
import fs from 'node:fs';
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
  getDownloadItemById,
  insertDownloadItem,
  listDownloadItems,
  updateDownloadItem,
} from './queries.ts';
import type { DownloadItem } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, validationFailed, type FieldErrors } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, pathId } from '../../http/fields.ts';
import { removeQuietly, sweepStaleTempFiles } from '../../storage/receive-upload.ts';
import { moveIntoPlace, newStoredName, releaseFilePath, uploadTempDir } from '../../storage/release-files.ts';
import { DOWNLOADABLE_NEEDS_FILE, parseStoreFields, parseUpdateFields, readReleaseForm, type UploadedReleaseFile } from './form.ts';
import { presentRelease } from './present.ts';
import { decideDownloadAccess, DOWNLOAD_MESSAGES, sendReleaseFile } from './send.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

const idSchema = z.object({ id: idField('id') });
// Temp files younger than this may belong to an upload still running.
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

export function downloadsRoutes(ctx: AppContext) {
  const { db, config, log, publisher } = ctx;
  const tmpDir = uploadTempDir(config);
  void sweepStaleTempFiles(tmpDir, STALE_UPLOAD_MS).then((removed) => {
    if (removed > 0) log.info(`removed ${removed} upload temp files left by an earlier run`);
  });

  const readForm = (c: Context<AppEnv>) => readReleaseForm(c.req.raw, { tmpDir, maxFileBytes: config.uploadMaxBytes });
  const logRemoveFailure = (error: unknown) => log.error('a release file could not be removed', error);
  const idOf = (c: Context<AppEnv>) => pathId(c.req.param('id'));
  const findItem = (id: number) => (Number.isSafeInteger(id) ? getDownloadItemById(db, id) : undefined);

  /** Moves the upload into place under a fresh name; the caller commits the row at once (same tick). */
  const placeFile = (file: UploadedReleaseFile | null) => {
    if (!file) return null;
    const storedName = newStoredName();
    return {
      storedName,
      path: moveIntoPlace(config, file.tempPath, storedName),
      columns: { download_url: file.filename, stored_name: storedName, size: file.size, sha256: file.sha256 },
    };
  };

  const download = async (c: Context<AppEnv>, id: number) => {
    const user = c.get('user');
    const access = decideDownloadAccess(user, findItem(id));
    if (!access.ok) return errorResponse(c, access.status, access.message);
    // decideDownloadAccess allows nobody without a user.
    return sendReleaseFile(c, ctx, access.item, user!);
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
          const { input } = parsed;
          // Rename and commit run with no await between them: no request ever sees a row without its
          // file, and a failed commit takes the file back out.
          const placed = placeFile(form.file);
          let item: DownloadItem;
          try {
            item = writeTransaction(db, () => {
              if (input.is_current === 1) clearCurrentDownloadItems(db);
              const created = insertDownloadItem(db, { ...input, download_url: null, stored_name: null, size: 0, sha256: '', ...placed?.columns });
              // Published means downloadable: the shop and CRM hear of a release customers can get (docs/integrations.md#events).
              if (created.downloadable === 1) recordWebhookEvent(db, 'release.published', presentRelease(created), ctx.now());
              return created;
            });
          } catch (error) {
            if (placed) fs.rmSync(placed.path, { force: true });
            throw error;
          }
          publisher.schedule(`download ${item.id} created`);
          return c.json({ message: 'Release created.', release: presentRelease(item, 0) }, 201);
        } finally {
          // Gone already when it was moved into place.
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
          const placed = placeFile(form.file);
          type Outcome = { kind: 'missing' } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'updated'; item: DownloadItem; previous: DownloadItem };
          let outcome: Outcome;
          try {
            outcome = writeTransaction(db, (): Outcome => {
              const previous = getDownloadItemById(db, id);
              if (!previous) return { kind: 'missing' };
              const downloadable = input.downloadable ?? previous.downloadable;
              if (downloadable === 1 && !placed && previous.stored_name === null) return { kind: 'invalid', errors: { file: [DOWNLOADABLE_NEEDS_FILE] } };
              if (input.is_current === 1) clearCurrentDownloadItems(db, id);
              const item = updateDownloadItem(db, id, { ...input, ...placed?.columns });
              if (item?.downloadable === 1 && previous.downloadable !== 1) recordWebhookEvent(db, 'release.published', presentRelease(item), ctx.now());
              return item ? { kind: 'updated', item, previous } : { kind: 'missing' };
            });
          } catch (error) {
            if (placed) fs.rmSync(placed.path, { force: true });
            throw error;
          }
          if (outcome.kind !== 'updated') {
            if (placed) fs.rmSync(placed.path, { force: true });
            return outcome.kind === 'invalid' ? validationFailed(c, outcome.errors) : errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
          }
          const { item, previous } = outcome;
          // The old file goes once the row no longer names it (a download already under way keeps reading
          // it: the open handle outlives the unlink).
          if (placed && previous.stored_name) await removeQuietly(releaseFilePath(config, previous.stored_name), logRemoveFailure);
          publisher.schedule(`download ${id} updated`);
          return c.json({ message: 'Release updated.', release: presentRelease(item, countDownloadsOfItem(db, id)) });
        } finally {
          if (form.file) await removeQuietly(form.file.tempPath);
        }
      })

      .delete('/delete', requireAdmin, smallJsonBody(), validate('json', idSchema), async (c) => {
        const { id } = c.req.valid('json');
        const deleted = writeTransaction(db, () => deleteDownloadItem(db, id));
        if (!deleted) return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
        // After the row is gone, so no request can find the row and miss its file.
        if (deleted.stored_name) await removeQuietly(releaseFilePath(config, deleted.stored_name), logRemoveFailure);
        publisher.schedule(`download ${id} deleted`);
        return c.json({ message: 'Release deleted.', id });
      })

      // The permission guard runs before the body is even read: anonymous and unverified callers get
      // the exact messages of docs/product/roles.md#answers whatever they send.
      .post('/download', requireVerifiedUser, smallJsonBody(), validate('json', idSchema), (c) => download(c, c.req.valid('json').id))

      // The GET-able form of the same gated download, for links, the browser's own resume and
      // `curl -C -`. Registered before `/:id` (which only matches digits anyway).
      .get('/file/:id{[0-9]+}', (c) => download(c, idOf(c)))

      .get('/:id{[0-9]+}', (c) => {
        const item = findItem(idOf(c));
        if (!item) return errorResponse(c, 404, DOWNLOAD_MESSAGES.notFound);
        return c.json({ release: presentRelease(item, isAdmin(c.get('user')) ? countDownloadsOfItem(db, item.id) : undefined) });
      })
  );
}

/** The downloads feature as server/app.ts mounts it: releases and their downloads, at full paths. */
export function downloadsFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/downloads', downloadsRoutes(ctx));
}
