// Build-time only (node:crypto): the islands that import lib/posts.ts must not pull this into the browser.
import { createHash } from 'node:crypto';
import type { SectionEntry } from '../../common/snapshot-schema.ts';

/**
 * The cacheKey of Astro's incremental build (astro.config.mjs) for pages made of posts: a publish copies a
 * page from the previous build when its key is unchanged. It covers all such a page shows: the site (name
 * and URL, in the layout), the given sections with their posts, and the year (in the footer). A posts page
 * passes every section of its namespace (its sidebar lists them all, so one edit changes each page of the
 * namespace); a section's feed passes its one section. Nothing else of the snapshot reaches these pages.
 */
export function postsCacheKey(site: unknown, sections: readonly SectionEntry[], year = new Date().getFullYear()): string {
  return createHash('sha256')
    .update(JSON.stringify([site, sections, year]))
    .digest('base64url');
}
