// Public media (uploaded images and their variants) under /media/*: streamed from $DATA_DIR/uploads, or with
// STORAGE=s3 from the bucket (or a redirect to S3_PUBLIC_URL: docs/decisions/0050-object-storage.md).
// Uploads are stored under random names and never rewritten in place, so they can be cached for a year.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { S3ObjectStore } from '../storage/object-store/index.ts';
import { mediaUrlToKey, ObjectNotFoundError } from '../storage/object-store/index.ts';
import { contentRange, parseRangeHeader } from '../http/byte-range.ts';
import { BASE_SECURITY_HEADERS } from '../http/security-headers.ts';
import { contentTypeOf, isInlineMediaType } from './content-types.ts';
import { sendNotFound, sendPlain } from './respond.ts';
import { decodeSafePath } from './safe-path.ts';

export const MEDIA_PREFIX = '/media/';
const CACHE = 'public, max-age=31536000, immutable';
// An uploaded SVG or HTML file opened directly must not run script in our origin.
const MEDIA_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const securityHeaders = Object.entries({ ...BASE_SECURITY_HEADERS, 'Content-Security-Policy': MEDIA_CSP }).flat();

export function createMediaHandler(mediaDir: string) {
  const root = path.resolve(mediaDir);
  let realRoot: string | null = null;

  /** The file's real path when it is a regular file inside the media root (symlinks included), else null. */
  async function resolveFile(requestPath: string): Promise<{ file: string; stat: fs.Stats } | null> {
    const decoded = decodeSafePath(requestPath);
    if (decoded === null || !decoded.startsWith(MEDIA_PREFIX)) return null;
    const relative = decoded.slice(MEDIA_PREFIX.length);
    // Hidden files (temp uploads, .DS_Store) are never public.
    if (relative === '' || relative.split('/').some((segment) => segment === '' || segment.startsWith('.'))) return null;
    const candidate = path.join(root, relative);
    if (!candidate.startsWith(root + path.sep)) return null;
    try {
      realRoot ??= await fs.promises.realpath(root);
      const file = await fs.promises.realpath(candidate);
      if (!file.startsWith(realRoot + path.sep)) return null;
      const stat = await fs.promises.stat(file);
      return stat.isFile() ? { file, stat } : null;
    } catch {
      return null;
    }
  }

  return async function serveMedia(req: IncomingMessage, res: ServerResponse, requestPath: string, head: boolean): Promise<void> {
    const found = await resolveFile(requestPath);
    if (!found) return sendNotFound(res, head);
    const { file, stat } = found;
    await answerMedia(req, res, head, { name: file, size: stat.size, modified: stat.mtime }, async (start, end) => fs.createReadStream(file, { start, end }));
  };
}

/** What the answer to a media request is made of: its name (for the type), size and last change. */
interface MediaFile {
  name: string;
  size: number;
  modified: Date;
}

/**
 * The one answer to a media request, from the disk or the bucket alike: ETag and 304, the same Range reading
 * as downloads (a backwards range such as 5-3 is ignored, a start past the end is 416), then the bytes from
 * `open` (null: the file went away meanwhile, 404).
 */
async function answerMedia(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  media: MediaFile,
  open: (start: number, end: number) => Promise<Readable | null>,
): Promise<void> {
  const etag = `W/"${media.size.toString(16)}-${Math.floor(media.modified.getTime()).toString(16)}"`;
  const type = contentTypeOf(media.name);
  const common = [
    'ETag',
    etag,
    'Last-Modified',
    media.modified.toUTCString(),
    'Cache-Control',
    CACHE,
    'Accept-Ranges',
    'bytes',
    ...(isInlineMediaType(type) ? [] : ['Content-Disposition', 'attachment']),
    ...securityHeaders,
  ];
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2) || tag.trim() === '*')) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const range = parseRangeHeader(req.headers.range, media.size);
  if (range === 'unsatisfiable') return sendPlain(res, 416, 'Range not satisfiable.\n', head, ['Content-Range', `bytes */${media.size}`]);
  const { start, end } = range ?? { start: 0, end: media.size - 1 };
  const length = media.size === 0 ? 0 : end - start + 1;
  const headers = ['Content-Type', type, 'Content-Length', String(length), ...(range ? ['Content-Range', contentRange(range, media.size)] : []), ...common];
  if (head || length === 0) {
    res.writeHead(range ? 206 : 200, headers);
    res.end();
    return;
  }
  const stream = await open(start, end);
  if (!stream) return sendNotFound(res, head);
  res.writeHead(range ? 206 : 200, headers);
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}

/** A redirect to the CDN names a file that never changes, but S3_PUBLIC_URL itself might: a day, not a year. */
const REDIRECT_CACHE = 'public, max-age=86400';

/**
 * /media/* from the bucket: a 302 to S3_PUBLIC_URL when it is set (pages published before it was set, and
 * the admin's library, still name /media/), else the object streamed through this process with the same
 * headers, Range and 304 answers as from the disk.
 */
export function createStoredMediaHandler(store: S3ObjectStore) {
  return async function serveStoredMedia(req: IncomingMessage, res: ServerResponse, requestPath: string, head: boolean): Promise<void> {
    const decoded = decodeSafePath(requestPath);
    const key = decoded === null ? null : mediaUrlToKey(decoded);
    if (!key) return sendNotFound(res, head);
    const publicUrl = store.publicUrl(key);
    if (publicUrl) {
      res.writeHead(302, ['Location', publicUrl, 'Cache-Control', REDIRECT_CACHE, 'Content-Length', '0', ...securityHeaders]);
      res.end();
      return;
    }
    const info = await store.head(key);
    if (!info) return sendNotFound(res, head);
    await answerMedia(req, res, head, { name: key, size: info.size, modified: info.lastModified }, async (start, end) => {
      try {
        return Readable.fromWeb((await store.read(key, { start, end })) as WebReadableStream<Uint8Array>);
      } catch (error) {
        if (error instanceof ObjectNotFoundError) return null;
        throw error;
      }
    });
  };
}
