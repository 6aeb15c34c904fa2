// Content types of the files a build or the media folder holds, and which are worth compressing.
import path from 'node:path';
import { getMimeType } from 'hono/utils/mime';

// Hono's table (hono/utils/mime, already our framework's) names the types; these few keep the charset our
// answers have always carried, or drop the one Hono adds to SVG (an image, not text): docs/decisions/0041.
const OVERRIDES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// Already-compressed formats (images, fonts, Pagefind's gzip chunks) gain nothing from another pass.
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.map', '.webmanifest', '.xml', '.txt', '.svg']);

export function contentTypeOf(file: string): string {
  const extension = path.extname(file).toLowerCase();
  return OVERRIDES[extension] ?? getMimeType(`file${extension}`) ?? 'application/octet-stream';
}

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE.has(path.extname(file).toLowerCase());
}

/** Media types a browser may render inline from /media; anything else is offered as a download. */
export function isInlineMediaType(type: string): boolean {
  return type.startsWith('image/') || type.startsWith('video/') || type === 'application/pdf';
}
