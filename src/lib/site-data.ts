// The snapshot for Astro pages: where it lives ($CONTENT_DIR, default <project>/content) and one read
// per build. Astro-only (it reads Astro's config); the node part is snapshot.ts.
import { root, site } from 'astro:config/server';
import { fileURLToPath } from 'node:url';
import { readSnapshot } from './snapshot.ts';
import type { SiteSnapshot } from '../../common/snapshot-schema.ts';

/** Name used only when there is no snapshot at all (a fresh clone); the server's SITE_NAME default. */
const FALLBACK_NAME = 'Dimensional Control';

/**
 * One parse per snapshot directory: a full build reads one, and the incremental renderer
 * (server/publish/renderer-process.ts) points CONTENT_DIR at each new snapshot in turn, so the same page
 * code reads the new content without any module being loaded again.
 */
let cached: { dir: string; snapshot: SiteSnapshot } | undefined;

export function getSnapshot(): SiteSnapshot {
  // The publish pipeline runs the build from its own working directory, so the default is
  // resolved against the project root, not the cwd.
  const contentDir = process.env.CONTENT_DIR || fileURLToPath(new URL('content/', root));
  // In dev, read every time so an export shows up without a restart.
  if (cached && cached.dir === contentDir && !import.meta.env.DEV) return cached.snapshot;
  const snapshot = readSnapshot(contentDir, { name: FALLBACK_NAME, url: site ?? 'http://localhost:4321' });
  cached = { dir: contentDir, snapshot };
  return snapshot;
}

/**
 * The year pages show (footer, titles): the snapshot's, never the clock's, so rendering the same snapshot
 * twice gives the same bytes (an incremental publish is compared byte for byte with a full build).
 */
export function siteYear(): number {
  return new Date(getSnapshot().generated_at).getUTCFullYear();
}
