// The layout of $DATA_DIR/builds: one directory per build named by a sortable, time-based id, a `current`
// symlink naming the live one, and for a while after a switch a `previous` symlink naming the build it
// replaced (nginx answers that build's hashed files from it; docs/decisions/0006-publish-and-static-serving.md).
// Replacing a symlink with rename() is atomic, so a reader (this server at start, or nginx serving
// builds/current) never sees a half-switched site.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../env.ts';

/** e.g. 20260101T120000123Z-000: UTC time to the millisecond, then a counter for builds in the same ms. */
export const BUILD_ID_PATTERN = /^\d{8}T\d{9}Z-\d{3}$/;
export const CURRENT_LINK = 'current';
export const PREVIOUS_LINK = 'previous';
export const FAILURE_LOG = 'last-failure.log';
/** Snapshots handed to running builds live here; nothing in it outlives its build. */
export const WORK_DIR = '.work';

export interface BuildLocation {
  id: string;
  dir: string;
}

/** Creates a fresh, empty directory for a new build; the id sorts after every earlier build's. */
export function createBuildDir(buildsDir: string, nowMs: number): BuildLocation {
  fs.mkdirSync(buildsDir, { recursive: true });
  const stamp = new Date(nowMs).toISOString().replace(/[-:.]/g, '');
  for (let counter = 0; counter < 1000; counter += 1) {
    const id = `${stamp}-${String(counter).padStart(3, '0')}`;
    const dir = path.join(buildsDir, id);
    try {
      fs.mkdirSync(dir);
      return { id, dir };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`too many builds started at ${stamp}`);
}

/** The live build, if `builds/current` names a complete one; null on a fresh data directory. */
export function findCurrentBuild(config: Pick<Config, 'buildsDir'>): BuildLocation | null {
  const id = linkTarget(config.buildsDir, CURRENT_LINK);
  if (id === null) return null;
  const dir = path.join(config.buildsDir, id);
  return fs.existsSync(path.join(dir, 'index.html')) ? { id, dir } : null;
}

/** The build `builds/previous` names, or null. */
export function findPreviousBuildId(buildsDir: string): string | null {
  return linkTarget(buildsDir, PREVIOUS_LINK);
}

export const PUBLIC_DIR_MODE = 0o755;
export const PUBLIC_FILE_MODE = 0o644;

/**
 * A finished build is public by definition, and nginx serves it as another user (README "Production",
 * docs/decisions/0032-nginx-front.md): directories 0755, files 0644, whatever the umask the server runs
 * with (the systemd unit's is 0077) and whatever modes the build's tools copied from their caches.
 * Symlinks are left alone (a build never needs them).
 */
export function makeBuildPublic(dir: string): void {
  fs.chmodSync(dir, PUBLIC_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) fs.chmodSync(file, PUBLIC_DIR_MODE);
    else if (entry.isFile()) fs.chmodSync(file, PUBLIC_FILE_MODE);
  }
}

/**
 * Points `builds/current` at the build, atomically, and first `builds/previous` at the build it replaces, so
 * nginx finds the replaced build's files from the moment the new one is live. Returns the replaced build's
 * id, or null when there was none (or it was the same build).
 */
export function switchCurrentBuild(buildsDir: string, id: string): string | null {
  const replaced = linkTarget(buildsDir, CURRENT_LINK);
  const previous = replaced !== null && replaced !== id ? replaced : null;
  if (previous) pointLink(buildsDir, PREVIOUS_LINK, previous);
  pointLink(buildsDir, CURRENT_LINK, id);
  return previous;
}

/** Removes `builds/previous` if it still names `id` (a later switch has pointed it at a newer build). */
export function forgetPreviousBuild(buildsDir: string, id: string): void {
  if (linkTarget(buildsDir, PREVIOUS_LINK) === id) fs.rmSync(path.join(buildsDir, PREVIOUS_LINK), { force: true });
}

/** The build id a link of the builds directory names, or null. */
function linkTarget(buildsDir: string, link: string): string | null {
  try {
    const id = path.basename(fs.readlinkSync(path.join(buildsDir, link)));
    return BUILD_ID_PATTERN.test(id) ? id : null;
  } catch {
    return null;
  }
}

function pointLink(buildsDir: string, link: string, id: string): void {
  const temp = path.join(buildsDir, `.${link}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  // Relative target: the builds directory stays valid when DATA_DIR is moved or mounted elsewhere.
  fs.symlinkSync(id, temp);
  try {
    fs.renameSync(temp, path.join(buildsDir, link));
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Beside a build's files, in a build whose search index was made from its own pages (the indexed copy a
 * publish puts live after it, docs/decisions/0058-first-build-search-after-live.md). It names the build, so
 * the hard link an incremental publish makes of it in the next build does not vouch for that one. Dot-files
 * are served by neither Node nor nginx.
 */
export const SEARCH_INDEXED_FILE = '.search-indexed';

/** Records that `build`'s search index was made from its pages. Replaces any linked file, never writes into it. */
export function recordSearchIndexed(build: BuildLocation): void {
  const file = path.join(build.dir, SEARCH_INDEXED_FILE);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${build.id}\n`);
}

/** Whether `build`'s search index was made from its own pages (false for one a stop or crash left behind its pages). */
export function hasOwnSearchIndex(build: BuildLocation): boolean {
  try {
    return fs.readFileSync(path.join(build.dir, SEARCH_INDEXED_FILE), 'utf8').trim() === build.id;
  } catch {
    return false;
  }
}

/** Removes every build directory except the ones named (and leftovers of builds a crash interrupted). */
export function pruneBuilds(buildsDir: string, keep: readonly string[]): void {
  for (const entry of fs.readdirSync(buildsDir, { withFileTypes: true })) {
    const stale =
      (entry.isDirectory() && BUILD_ID_PATTERN.test(entry.name) && !keep.includes(entry.name)) ||
      ([CURRENT_LINK, PREVIOUS_LINK].some((link) => entry.name.startsWith(`.${link}.`)) && entry.name.endsWith('.tmp'));
    if (stale) fs.rmSync(path.join(buildsDir, entry.name), { recursive: true, force: true });
  }
  fs.rmSync(path.join(buildsDir, WORK_DIR), { recursive: true, force: true });
}

/**
 * Fills the fresh directory `to` with hard links to every file of `from` (but the top-level entries in
 * `except`): an incremental publish then replaces only what changed (by rename, never by writing into a
 * linked file), so a switch costs what changed and both builds stay whole (docs/decisions/0044-incremental-publish.md).
 * Throws when the file system cannot link (another device): the publisher then builds in full.
 */
export function linkBuildDir(from: string, to: string, except: readonly string[] = []): number {
  let count = 0;
  const walk = (source: string, target: string, top: boolean) => {
    for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
      if (top && except.includes(entry.name)) continue;
      const sourcePath = path.join(source, entry.name);
      const targetPath = path.join(target, entry.name);
      if (entry.isDirectory()) {
        fs.mkdirSync(targetPath, { recursive: true });
        walk(sourcePath, targetPath, false);
      } else if (entry.isFile()) {
        fs.linkSync(sourcePath, targetPath);
        count++;
      }
    }
  };
  walk(from, to, true);
  return count;
}

/**
 * Puts `body` at `file` of a directory filled by linkBuildDir. Its files are hard links to the live build's:
 * writing into one would change the live page under its readers, so a new file is renamed over the link,
 * leaving the live one whole. The compressed forms the link copy carried (of the old bytes) go first, so
 * neither nginx nor the loader can take them for the new page: the loader trusts a form written no earlier
 * than its file (server/static/static-site.ts), and file times are only as fine as the kernel's clock tick.
 */
export function replaceLinkedFile(file: string, body: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const form of [`${file}.br`, `${file}.gz`]) fs.rmSync(form, { force: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  fs.writeFileSync(temp, body);
  fs.renameSync(temp, file);
}
