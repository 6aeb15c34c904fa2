// Public media (uploaded images and their variants) streamed from $DATA_DIR/uploads under /media/*.
// Uploads are stored under random names and never rewritten in place, so they can be cached for a year.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
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
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const type = contentTypeOf(file);
    const common = [
      'ETag',
      etag,
      'Last-Modified',
      stat.mtime.toUTCString(),
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
    // The same Range reading as downloads: a backwards range (5-3) is ignored, a start past the end is 416.
    const range = parseRangeHeader(req.headers.range, stat.size);
    if (range === 'unsatisfiable') return sendPlain(res, 416, 'Range not satisfiable.\n', head, ['Content-Range', `bytes */${stat.size}`]);
    const { start, end } = range ?? { start: 0, end: stat.size - 1 };
    const length = stat.size === 0 ? 0 : end - start + 1;
    res.writeHead(range ? 206 : 200, ['Content-Type', type, 'Content-Length', String(length), ...(range ? ['Content-Range', contentRange(range, stat.size)] : []), ...common]);
    if (head || length === 0) {
      res.end();
      return;
    }
    const stream = fs.createReadStream(file, { start, end });
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  };
}
