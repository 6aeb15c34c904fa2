// The size bound of Node's compile cache (docs/decisions/0067-serving-compile-cache.md). Node never removes an
// entry: files that changed or went away leave theirs behind, and every full build adds a couple for the bundle
// it loads from its own folder. Cleared whole, once it holds far more than one installation needs (about 2,400
// entries: the server's modules, Astro's, the markdown pipeline's), it is filled again by the next start.
import fs from 'node:fs';
import path from 'node:path';

/** About eight times what one installation's code needs, some 150 MB. */
export const COMPILE_CACHE_MAX_ENTRIES = 20_000;

/** Removes `directory` when its Node-version folders hold more than `maxEntries` entries; true when it did. */
export function trimCompileCache(directory: string, maxEntries = COMPILE_CACHE_MAX_ENTRIES): boolean {
  let entries = 0;
  try {
    for (const version of fs.readdirSync(directory)) entries += fs.readdirSync(path.join(directory, version)).length;
  } catch {
    // No cache yet, or not one Node made: nothing to trim.
    return false;
  }
  if (entries <= maxEntries) return false;
  fs.rmSync(directory, { recursive: true, force: true });
  return true;
}
