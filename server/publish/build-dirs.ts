// The layout of $DATA_DIR/builds: one directory per build named by a sortable, time-based id, and a
// `current` symlink naming the live one. Replacing the symlink with rename() is atomic, so a reader
// (this server at start, or nginx serving builds/current) never sees a half-switched site.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../env.ts';

/** e.g. 20260101T120000123Z-000: UTC time to the millisecond, then a counter for builds in the same ms. */
export const BUILD_ID_PATTERN = /^\d{8}T\d{9}Z-\d{3}$/;
export const CURRENT_LINK = 'current';
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
  let target: string;
  try {
    target = fs.readlinkSync(path.join(config.buildsDir, CURRENT_LINK));
  } catch {
    return null;
  }
  const id = path.basename(target);
  if (!BUILD_ID_PATTERN.test(id)) return null;
  const dir = path.join(config.buildsDir, id);
  return fs.existsSync(path.join(dir, 'index.html')) ? { id, dir } : null;
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

/** Points `builds/current` at the build, atomically (a new symlink renamed over the old one). */
export function switchCurrentBuild(buildsDir: string, id: string): void {
  const temp = path.join(buildsDir, `.${CURRENT_LINK}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  // Relative target: the builds directory stays valid when DATA_DIR is moved or mounted elsewhere.
  fs.symlinkSync(id, temp);
  try {
    fs.renameSync(temp, path.join(buildsDir, CURRENT_LINK));
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes every build directory except the ones named (and leftovers of builds a crash interrupted). */
export function pruneBuilds(buildsDir: string, keep: readonly string[]): void {
  for (const entry of fs.readdirSync(buildsDir, { withFileTypes: true })) {
    const stale =
      (entry.isDirectory() && BUILD_ID_PATTERN.test(entry.name) && !keep.includes(entry.name)) ||
      (entry.name.startsWith(`.${CURRENT_LINK}.`) && entry.name.endsWith('.tmp'));
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
