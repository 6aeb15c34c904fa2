// Where the markdown cache (cache.ts) keeps a body's rendering. Apart from cache.ts so that code which only
// looks up entries (the markdown pre-render's count of missing bodies) does not load the whole pipeline.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** `<cacheDir>/<2 hex>/<sha256 of the body>.html`. */
export function markdownCacheFile(cacheDir: string, body: string): string {
  const key = crypto.createHash('sha256').update(body).digest('hex');
  return path.join(cacheDir, key.slice(0, 2), `${key}.html`);
}

/** True when the cache holds `body`'s rendering (it may be read at once: entries only ever appear whole). */
export function isMarkdownCached(body: string, cacheDir: string): boolean {
  return fs.existsSync(markdownCacheFile(cacheDir, body));
}
