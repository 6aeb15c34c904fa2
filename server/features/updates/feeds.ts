// Which release a holder gets from the update feeds (issue 25 item 4; docs/updates.md): the releases with a
// version that are downloadable, on the asked channel (beta also offers stable releases, as updaters expect),
// with a file for the platform; ordered by version (semver: pre-releases below their release), newest first.
// `latest` is the newest the holder may download (decideGate, the one rule of the downloads feature),
// `blocked` the newest one they may not have, when it is newer than `latest`.
import { compareSemver } from '../../../common/semver.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import { decideGate, type GateCode, type ReleaseWithFiles } from '../downloads/index.ts';
import type { LicenseGrant } from '../licensing/index.ts';

export type FeedChannel = 'stable' | 'beta';
export type FeedPlatform = 'windows' | 'macos' | 'linux';
export type FeedArch = 'x64' | 'arm64' | 'universal';

export interface FeedQuery {
  channel: FeedChannel;
  platform: FeedPlatform;
  arch?: FeedArch;
  /** Only files with a signature (the appcast). */
  signedOnly?: boolean;
}

export interface FeedEntry {
  release: ReleaseWithFiles & { version: string };
  /** The files for the platform, best match first; never empty. */
  files: ReleaseFile[];
}

export interface FeedChoice {
  latest: FeedEntry | null;
  blocked: { entry: FeedEntry; code: GateCode; message: string } | null;
  /** Every release the holder may download, newest first (the appcast lists them all). */
  allowed: FeedEntry[];
}

/**
 * Files of the release a platform and arch can use, best first: that arch, universal, another arch, then
 * `any`. Another arch is the last choice on Windows and macOS, whose arm64 machines run x64 builds (and
 * whose x64 updaters skip arm64 files, docs/updates.md); never on Linux, where an AppImage of the other
 * arch does not start. A file is offered once it has its SHA-512.
 */
export function filesFor(release: ReleaseWithFiles, query: FeedQuery): ReleaseFile[] {
  const ready = release.files.filter((file) => file.sha512 !== null && (!query.signedOnly || file.ed_signature !== null));
  const rank = (file: ReleaseFile): number => {
    if (file.platform === query.platform) {
      if (query.arch === undefined || file.arch === query.arch) return 0;
      if (file.arch === 'universal') return 1;
      return query.platform === 'linux' ? -1 : 2;
    }
    return file.platform === 'any' ? 3 : -1;
  };
  const usable = ready.filter((file) => rank(file) >= 0);
  return usable.sort((a, b) => rank(a) - rank(b) || a.id - b.id);
}

function onChannel(release: ReleaseWithFiles, channel: FeedChannel): boolean {
  return channel === 'beta' || release.channel === 'stable';
}

/** The feed's candidates for a query, newest version first. */
export function feedEntries(releases: readonly ReleaseWithFiles[], query: FeedQuery): FeedEntry[] {
  const entries: FeedEntry[] = [];
  for (const release of releases) {
    if (release.version === null || release.downloadable !== 1 || !onChannel(release, query.channel)) continue;
    const files = filesFor(release, query);
    if (files.length > 0) entries.push({ release: release as FeedEntry['release'], files });
  }
  return entries.sort(
    (a, b) => compareSemver(b.release.version, a.release.version) || b.release.released_at.localeCompare(a.release.released_at) || b.release.id - a.release.id,
  );
}

/** What the holder's grants give of the feed (no key: no grants, so only ungated stable releases). */
export function chooseFromFeed(entries: readonly FeedEntry[], grants: readonly LicenseGrant[]): FeedChoice {
  const allowed: FeedEntry[] = [];
  let blocked: FeedChoice['blocked'] = null;
  for (const entry of entries) {
    const gate = decideGate(entry.release, grants);
    if (gate.ok) allowed.push(entry);
    else if (allowed.length === 0 && blocked === null) blocked = { entry, code: gate.code, message: gate.message };
  }
  return { latest: allowed[0] ?? null, blocked, allowed };
}
