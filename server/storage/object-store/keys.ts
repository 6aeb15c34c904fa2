// Object keys: one name for a stored file whichever store holds it (docs/decisions/0050-object-storage.md).
// A key is `<area>/<path>`: the area `media` is the public images directory ($DATA_DIR/uploads, served at
// /media), `private` the gated files directory ($DATA_DIR/private: release files under downloads/, files
// attached to posts under <namespace>/). The local store maps a key onto exactly the path of today; the
// bucket holds the same key, so a migration copies by listing and nothing needs a table to know where a
// file lives.
import path from 'node:path';
import type { Config } from '../../env.ts';

export const STORE_AREAS = ['media', 'private'] as const;
export type StoreArea = (typeof STORE_AREAS)[number];

/** A segment never starts with a dot: temp files (`.tmp`, `.tmp-…`) and hidden files are never objects. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export class InvalidObjectKeyError extends Error {}

/** The key's area and its path inside it; throws for anything we would never have made. */
export function splitKey(key: string): { area: StoreArea; segments: string[] } {
  const [area, ...segments] = key.split('/');
  if (!STORE_AREAS.includes(area as StoreArea) || segments.length === 0 || !segments.every((segment) => SEGMENT.test(segment))) {
    throw new InvalidObjectKeyError(`not an object key: ${JSON.stringify(key)}`);
  }
  return { area: area as StoreArea, segments };
}

export function isObjectKey(key: string): boolean {
  try {
    splitKey(key);
    return true;
  } catch {
    return false;
  }
}

/** The directory an area is kept in on the local disk. */
export function areaDirectory(config: Pick<Config, 'uploadsDir' | 'privateFilesDir'>, area: StoreArea): string {
  return area === 'media' ? config.uploadsDir : config.privateFilesDir;
}

/** The local path of a key: today's path of that file, bit for bit. */
export function localPathOf(config: Pick<Config, 'uploadsDir' | 'privateFilesDir'>, key: string): string {
  const { area, segments } = splitKey(key);
  return path.join(areaDirectory(config, area), ...segments);
}

/** The key of a public image variant behind its URL `/media/<route>/<name>`, or null for any other URL. */
export function mediaUrlToKey(url: string): string | null {
  if (!url.startsWith('/media/')) return null;
  const key = `media/${url.slice('/media/'.length)}`;
  return isObjectKey(key) ? key : null;
}

/** `/media/<route>/<name>` for a media key. */
export function mediaKeyToUrl(key: string): string {
  const { area, segments } = splitKey(key);
  if (area !== 'media') throw new InvalidObjectKeyError(`not a media key: ${key}`);
  return `/media/${segments.join('/')}`;
}

/** A file attached to posts of a namespace: $DATA_DIR/private/<namespace>/<stored name>. */
export function attachedFileKey(namespace: string, storedName: string): string {
  return `private/${namespace}/${storedName}`;
}

const RELEASE_STORED_NAME = /^[0-9a-f]{32}$/;

/**
 * A release file: $DATA_DIR/private/downloads/<stored name> (server/storage/release-files.ts). Throws for a
 * name newStoredName could not have made (a damaged row), so no row can point elsewhere in the store.
 */
export function releaseFileKey(storedName: string): string {
  if (!RELEASE_STORED_NAME.test(storedName)) throw new InvalidObjectKeyError(`not a stored release file name: ${JSON.stringify(storedName)}`);
  return `private/downloads/${storedName}`;
}
