// Sending one file of a release that decideReleaseAccess (access.ts) allowed, counted once per downloader,
// file and day (issue 25 item 5). From the local store: streamed from disk, resumable with single byte
// ranges, counted when a download starts. From a bucket (docs/decisions/0050-object-storage.md): a 302 to a
// presigned link, as for attached files (server/storage/send-stored-file.ts), counted when the link is
// issued; the bucket answers the bytes and their ranges.
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { recordDownload } from './queries.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import { DOWNLOAD_MESSAGES } from './access.ts';
import { attachmentDisposition, contentRange, ifRangeAllowsRange, parseRangeHeader } from '../../http/byte-range.ts';
import { errorResponse } from '../../http/errors.ts';
import { fileRangeStream } from '../../storage/file-range-stream.ts';
import { localPathOf, releaseFileKey } from '../../storage/object-store/index.ts';
import { sendStoredFile } from '../../storage/send-stored-file.ts';

/**
 * Who downloads, for the once-a-day count: a signed-in user, a license (the update API with its key), or a
 * signed update link made without a key, known only by the random nonce in it.
 */
export type Downloader = { kind: 'user'; userId: number } | { kind: 'license'; licenseId: number } | { kind: 'link'; nonce: string };

/**
 * Answers a file of an allowed release. Local store: 200 with the whole file, 206 for a satisfiable single
 * range (unless If-Range names another version), 416 for one outside the file. Bucket: 302 to a presigned
 * link (or the link as JSON for DOWNLOAD_LINK_TYPE). Any GET that sends bytes or a link counts the download
 * (INSERT OR IGNORE on downloader, file and day), so a download resumed with `bytes=N-` or through a fresh
 * link is the same download, and a refused or HEAD request counts nothing.
 */
export async function sendReleaseFile(c: Context<AppEnv>, ctx: AppContext, file: ReleaseFile, downloader: Downloader): Promise<Response> {
  let key: string;
  try {
    key = releaseFileKey(file.stored_name);
  } catch (error) {
    ctx.log.error(`release ${file.download_item_id}, file ${file.id}: its row names no stored file`, error);
    return errorResponse(c, 404, DOWNLOAD_MESSAGES.fileMissing);
  }
  if (ctx.storage.kind === 's3') {
    return sendStoredFile(c, ctx, key, {
      filename: file.name,
      sha256: file.sha256 || null,
      label: `release ${file.download_item_id}, file ${file.id}`,
      missingMessage: DOWNLOAD_MESSAGES.fileMissing,
      onIssue: () => countDownload(ctx, file, downloader),
    });
  }
  // The local store's own file, opened once: its Range answers and ETag need the size and date of the
  // very bytes sent, and a file replaced meanwhile keeps being read through the open handle.
  let handle: FileHandle;
  try {
    handle = await fs.promises.open(localPathOf(ctx.config, key), 'r');
  } catch (error) {
    ctx.log.error(`release ${file.download_item_id}, file ${file.id}: it cannot be opened`, error);
    return errorResponse(c, 404, DOWNLOAD_MESSAGES.fileMissing);
  }
  let handedOver = false;
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const etag = `"${file.sha256 || `${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`}"`;
    const lastModified = stat.mtime.toUTCString();
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      // Gated content: a shared cache must never keep it; the browser revalidates.
      'Cache-Control': 'private, no-cache',
      'Content-Disposition': attachmentDisposition(file.name),
      // docs/product/api.md: the client takes the file name from this header.
      filename: encodeURIComponent(file.name),
      ...(file.sha256 ? { 'Repr-Digest': `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:` } : {}),
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

    countDownload(ctx, file, downloader);
    const body = fileRangeStream(handle, start, end, {
      onError: (error) => ctx.log.error(`release ${file.download_item_id}, file ${file.id}: reading it failed`, error),
    });
    handedOver = true;
    return c.body(body, status, headers);
  } finally {
    if (!handedOver) await handle.close().catch(() => {});
  }
}

function countDownload(ctx: AppContext, file: ReleaseFile, downloader: Downloader): void {
  try {
    recordDownload(ctx.db, {
      download_item_id: file.download_item_id,
      release_file_id: file.id,
      platform: file.platform,
      downloader:
        downloader.kind === 'user'
          ? `user:${downloader.userId}`
          : downloader.kind === 'license'
            ? `license:${downloader.licenseId}`
            : `link:${downloader.nonce}`,
      user_id: downloader.kind === 'user' ? downloader.userId : null,
      license_id: downloader.kind === 'license' ? downloader.licenseId : null,
      day: new Date(ctx.now()).toISOString().slice(0, 10),
    });
  } catch (error) {
    // The release was deleted a moment ago: nothing left to count it against; the bytes still go out.
    ctx.log.warn(`release ${file.download_item_id}: download not counted`, error);
  }
}
