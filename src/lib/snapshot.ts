// Reads the content snapshot ($CONTENT_DIR/site.json) at build time. Node only: call it from page
// frontmatter (through site-data.ts), never from code that reaches the browser.
import fs from 'node:fs';
import path from 'node:path';
import { parseSnapshot, type SiteSnapshot } from '../../common/snapshot-schema.ts';
import { SNAPSHOT_FILE } from '../../common/snapshot-types.ts';

type SiteIdentity = SiteSnapshot['site'];

/** A valid snapshot with no content, so a fresh clone can run `astro dev` and `astro check`. */
export function emptySnapshot(site: SiteIdentity): SiteSnapshot {
  return {
    generated_at: new Date().toISOString(),
    site,
    home: [],
    namespaces: { news: [], documentation: [], tutorials: [] },
    downloads: [],
    legal_pages: [],
    contact: { address: '', email: '', phone: '' },
  };
}

/**
 * The snapshot in `contentDir`. A missing file gives an empty snapshot (with a warning) named after
 * `fallback`; a file that is not a snapshot throws, naming the file and the field, so a broken export
 * fails the build (and the live site stays as it was) instead of publishing empty pages.
 */
export function readSnapshot(contentDir: string, fallback: SiteIdentity): SiteSnapshot {
  const file = path.join(contentDir, SNAPSHOT_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    console.warn(`[snapshot] ${file} not found: building with no content (set CONTENT_DIR to a directory holding ${SNAPSHOT_FILE}).`);
    return emptySnapshot(fallback);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseSnapshot(data, file);
}
