// Who may download which release (docs/product/roles.md, issue 6 item 2), and sending the file: streamed from disk,
// resumable with single byte ranges, its completed downloads logged.
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { insertDownloadLog } from './queries.ts';
import type { DownloadItem, User } from '../../db/schema.ts';
import { isAdmin } from '../../auth/guards.ts';
import { attachmentDisposition, contentRange, ifRangeAllowsRange, parseRangeHeader } from '../../http/byte-range.ts';
import { errorResponse } from '../../http/errors.ts';
import { fileRangeStream } from '../../storage/file-range-stream.ts';
import { releaseFilePath } from '../../storage/release-files.ts';

export const DOWNLOAD_MESSAGES = {
  /** docs/product/roles.md, exact text. */
  anonymous: 'You must be logged in to use download',
  /** docs/product/roles.md, exact text. */
  unverified: 'Only verified user can use download!',
  /** Verified non-admins: a release that is not downloadable, has no file, or does not exist. */
  unavailable: 'This release is not available for download.',
  notFound: 'This release does not exist.',
  noFile: 'This release has no file to download.',
  fileMissing: 'The file of this release is missing on the server. Please tell the site admin.',
  rangeNotSatisfiable: 'The requested range lies outside the file.',
} as const;

export type ServableItem = DownloadItem & { stored_name: string; download_url: string };

export type DownloadAccess = { ok: true; item: ServableItem } | { ok: false; status: 401 | 403 | 404; message: string };

function hasFile(item: DownloadItem): item is ServableItem {
  return item.stored_name !== null && item.download_url !== null;
}

/**
 * The permission check, by id, for every download request. Non-admins get one answer for "does not
 * exist", "not downloadable" and "no file", so trying ids reveals nothing beyond the public list.
 */
export function decideDownloadAccess(user: User | null, item: DownloadItem | undefined): DownloadAccess {
  if (!user) return { ok: false, status: 401, message: DOWNLOAD_MESSAGES.anonymous };
  if (!user.email_verified_at) return { ok: false, status: 403, message: DOWNLOAD_MESSAGES.unverified };
  if (!isAdmin(user)) {
    if (!item || item.downloadable !== 1 || !hasFile(item)) return { ok: false, status: 403, message: DOWNLOAD_MESSAGES.unavailable };
    return { ok: true, item };
  }
  if (!item) return { ok: false, status: 404, message: DOWNLOAD_MESSAGES.notFound };
  if (!hasFile(item)) return { ok: false, status: 404, message: DOWNLOAD_MESSAGES.noFile };
  return { ok: true, item };
}

/**
 * Answers the file of an allowed release: 200 with the whole file, 206 for a satisfiable single range
 * (unless If-Range names another version), 416 for one outside the file. A download is logged once the
 * response has handed over the file's last byte, so a cut download is not counted but its resumption
 * (`bytes=N-`) is; a range that stops short of the end is never counted.
 */
export async function sendReleaseFile(c: Context<AppEnv>, ctx: AppContext, item: ServableItem, user: User): Promise<Response> {
  let handle: FileHandle;
  try {
    handle = await fs.promises.open(releaseFilePath(ctx.config, item.stored_name), 'r');
  } catch (error) {
    ctx.log.error(`release ${item.id}: its file cannot be opened`, error);
    return errorResponse(c, 404, DOWNLOAD_MESSAGES.fileMissing);
  }
  let handedOver = false;
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const etag = `"${item.sha256 || `${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`}"`;
    const lastModified = stat.mtime.toUTCString();
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      // Gated content: a shared cache must never keep it; the browser revalidates.
      'Cache-Control': 'private, no-cache',
      'Content-Disposition': attachmentDisposition(item.download_url),
      // docs/product/api.md: the client takes the file name from this header.
      filename: encodeURIComponent(item.download_url),
      ...(item.sha256 ? { 'Repr-Digest': `sha-256=:${Buffer.from(item.sha256, 'hex').toString('base64')}:` } : {}),
    };

    let range = parseRangeHeader(c.req.header('range'), size);
    if (range !== null && !ifRangeAllowsRange(c.req.header('if-range'), etag, lastModified)) range = null;
    if (range === 'unsatisfiable') {
      c.header('Content-Range', `bytes */${size}`);
      c.header('Accept-Ranges', 'bytes');
      c.header('ETag', etag);
      return errorResponse(c, 416, DOWNLOAD_MESSAGES.rangeNotSatisfiable);
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
    if (range) headers['Content-Range'] = contentRange(range, size);
    const status = range ? 206 : 200;
    // Hono answers HEAD by running the GET handler and dropping the body: never open a stream for it.
    if (c.req.method === 'HEAD') return c.body(null, status, headers);

    const userId = user.id;
    const body = fileRangeStream(handle, start, end, {
      onComplete: end === size - 1 ? () => recordCompletedDownload(ctx, item.id, userId) : undefined,
      onError: (error) => ctx.log.error(`release ${item.id}: reading its file failed`, error),
    });
    handedOver = true;
    return c.body(body, status, headers);
  } finally {
    if (!handedOver) await handle.close().catch(() => {});
  }
}

function recordCompletedDownload(ctx: AppContext, itemId: number, userId: number): void {
  try {
    insertDownloadLog(ctx.db, { download_item_id: itemId, user_id: userId, created_at: new Date(ctx.now()).toISOString() });
  } catch (error) {
    // The release was deleted while its file was being sent: nothing left to count it against.
    ctx.log.warn(`release ${itemId}: completed download not logged`, error);
  }
}

