// The answer of a download route once its own checks have passed (docs/decisions/0050-object-storage.md):
// from the local store the bytes themselves, as always; from a bucket a 302 to a presigned GET that works
// for PRESIGNED_LINK_SECONDS, the file's name in its response-content-disposition, so the bytes (and any
// Range or resumption) go from the bucket to the client and never through this process. Our own pages ask
// for the link as JSON instead (common/download-link.ts), since a fetch may not follow it without CORS.
// Attached files use all of it; release files (server/features/downloads/send.ts) use its bucket answer
// and keep their own ranged local answer.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../context.ts';
import { attachmentDisposition } from '../http/byte-range.ts';
import { errorResponse } from '../http/errors.ts';
import { DOWNLOAD_LINK_TYPE, type DownloadLink } from '../../common/download-link.ts';
import { ObjectNotFoundError, PRESIGNED_LINK_SECONDS } from './object-store/index.ts';

export interface StoredFileAnswer {
  /** The name the client saves the file under (the stored name is random). */
  filename: string;
  /** Lower-case hex, when known: sent as Repr-Digest with the bytes. */
  sha256: string | null;
  /** Names the file in log lines: "news file 12". */
  label: string;
  /** The 404 message when the store has no such object. */
  missingMessage: string;
  /**
   * Called once the object is known to exist, right before a link is handed out or the bytes start (not for
   * HEAD): where a route counts its download. With a bucket the link is all this process ever sees, so the
   * download counts when its link is issued.
   */
  onIssue?: () => void;
}

export async function sendStoredFile(c: Context<AppEnv>, ctx: Pick<AppContext, 'storage' | 'log'>, key: string, answer: StoredFileAnswer): Promise<Response> {
  const { storage, log } = ctx;
  const info = await storage.head(key).catch((error: unknown) => {
    log.error(`${answer.label}: the store could not be asked for it`, error);
    throw error;
  });
  if (!info) {
    log.error(`${answer.label}: missing in the store (${key})`);
    return errorResponse(c, 404, answer.missingMessage);
  }

  const issuing = c.req.method !== 'HEAD';
  if (storage.kind === 's3') {
    const url = await storage.presignGet(key, { filename: answer.filename, expiresInSeconds: PRESIGNED_LINK_SECONDS });
    if (issuing) answer.onIssue?.();
    c.header('Cache-Control', 'private, no-store');
    if (wantsLink(c)) {
      const link: DownloadLink = { url, filename: answer.filename, expires_in: PRESIGNED_LINK_SECONDS };
      return c.body(JSON.stringify(link), 200, { 'Content-Type': DOWNLOAD_LINK_TYPE });
    }
    return c.redirect(url, 302);
  }

  let body: ReadableStream<Uint8Array>;
  try {
    body = await storage.read(key);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
    log.error(`${answer.label}: removed while being sent (${key})`);
    return errorResponse(c, 404, answer.missingMessage);
  }
  if (issuing) answer.onIssue?.();
  return c.body(body, 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(info.size),
    'Content-Disposition': attachmentDisposition(answer.filename),
    // docs/product/api.md: the client takes the file name from this header (percent-encoded, so any name is safe).
    filename: encodeURIComponent(answer.filename),
    'Cache-Control': 'private, no-store',
    ...(answer.sha256 ? { 'Repr-Digest': `sha-256=:${Buffer.from(answer.sha256, 'hex').toString('base64')}:` } : {}),
  });
}

function wantsLink(c: Context<AppEnv>): boolean {
  return (c.req.header('Accept') ?? '').toLowerCase().includes(DOWNLOAD_LINK_TYPE);
}
