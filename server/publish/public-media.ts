// With the bucket's media public at S3_PUBLIC_URL (a CDN in front of it; docs/decisions/0050-object-storage.md),
// the published pages name images there, not on the site: the database keeps `/media/…` (the store's own
// names, whatever the store), and the export rewrites each of our media URLs, in image fields and in the
// text of posts and sections alike, into `<S3_PUBLIC_URL>/media/…`, the same key in the bucket.
import type { Config } from '../env.ts';

/** Our media URLs where a page can name them: after a quote, a bracket, a space or `=`, or at the start of a value. */
const MEDIA_URL = /(^|["'(\s=])\/media\/((?:news|documentation|tutorials|home)\/[A-Za-z0-9][A-Za-z0-9._-]*)/g;

/** A function that rewrites every media URL in a text, or null when media are served by the site itself. */
export function publicMediaRewriter(config: Pick<Config, 'storage'>): ((text: string) => string) | null {
  if (config.storage.kind !== 's3' || !config.storage.publicUrl) return null;
  const base = `${config.storage.publicUrl}/media/`;
  return (text) => (text.includes('/media/') ? text.replace(MEDIA_URL, (_, before: string, rest: string) => `${before}${base}${rest}`) : text);
}

/** Applies `rewrite` to every string inside a JSON-like value, returning a new value. */
export function rewriteStrings<T>(value: T, rewrite: (text: string) => string): T {
  if (typeof value === 'string') return rewrite(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => rewriteStrings(item, rewrite)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteStrings(item, rewrite)])) as T;
  }
  return value;
}
