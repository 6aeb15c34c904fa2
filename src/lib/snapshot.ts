// Reads the content snapshot ($CONTENT_DIR/site.json) at build time. Node only: call it from page
// frontmatter (through site-data.ts), never from code that reaches the browser.
import fs from 'node:fs';
import path from 'node:path';
import { NAMESPACE_LIST, SNAPSHOT_FILE, type SiteSnapshot } from './snapshot-types.ts';

export interface SiteIdentity {
  name: string;
  url: string;
}

/** A valid snapshot with no content, so a fresh clone can run `astro dev` and `astro check`. */
export function emptySnapshot(site: SiteIdentity): SiteSnapshot {
  return {
    generated_at: new Date(0).toISOString(),
    site,
    home: [],
    namespaces: { news: [], documentation: [], tutorials: [] },
    downloads: [],
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
  checkSnapshot(data, file);
  return data;
}

type Json = Record<string, unknown>;

function expect(condition: boolean, file: string, field: string, what: string): asserts condition {
  if (!condition) throw new Error(`${file}: ${field} must be ${what}`);
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkList(value: unknown, file: string, field: string, check: (item: Json, at: string) => void): void {
  expect(Array.isArray(value), file, field, 'a list');
  value.forEach((item, index) => {
    expect(isObject(item), file, `${field}[${index}]`, 'an object');
    check(item, `${field}[${index}]`);
  });
}

function checkStrings(item: Json, at: string, file: string, keys: string[]): void {
  for (const key of keys) expect(typeof item[key] === 'string', file, `${at}.${key}`, 'a string');
}

/** The fields the pages rely on; the exporter (server/publish/export-snapshot.ts) writes all of them. */
function checkSnapshot(data: unknown, file: string): asserts data is SiteSnapshot {
  expect(isObject(data), file, 'the snapshot', 'an object');
  expect(isObject(data.site), file, 'site', 'an object');
  checkStrings(data.site, 'site', file, ['name', 'url']);
  checkList(data.home, file, 'home', (section, at) => {
    checkStrings(section, at, file, ['title', 'body']);
    checkList(section.images, file, `${at}.images`, (image, imageAt) => {
      checkStrings(image, imageAt, file, ['alt']);
      expect(isObject(image.urls), file, `${imageAt}.urls`, 'an object');
    });
  });
  expect(isObject(data.namespaces), file, 'namespaces', 'an object');
  for (const namespace of NAMESPACE_LIST) {
    checkList(data.namespaces[namespace], file, `namespaces.${namespace}`, (section, at) => {
      checkStrings(section, at, file, ['title', 'title_slug']);
      checkList(section.posts, file, `${at}.posts`, (post, postAt) => checkStrings(post, postAt, file, ['title', 'title_slug', 'body', 'created_at']));
    });
  }
  checkList(data.downloads, file, 'downloads', (item, at) => checkStrings(item, at, file, ['title', 'body', 'release']));
}
