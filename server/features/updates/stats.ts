// The numbers of the admins' downloads page (issue 25 item 5; GET /api/admin/downloads/stats?days=30):
// downloads per version and platform (once per downloader, file and day), update checks per reported version,
// and the share of checks (that reported a version) already on the newest release of their channel and platform,
// gated or not: the counts do not say which license asked, so "newest" is the channel's, not the holder's.
import { compareSemver, isSemver } from '../../../common/semver.ts';
import type { Db } from '../../db/client.ts';
import { listVersionedReleases } from '../downloads/index.ts';
import { feedEntries, type FeedChannel, type FeedPlatform } from './feeds.ts';
import { countDownloadsByVersion, listUpdateChecks } from './queries.ts';

export interface DownloadStats {
  downloads: Array<{ version: string | null; platform: string; count: number }>;
  checks: Array<{ version: string | null; count: number }>;
  /** 0..100 with one decimal, or null when no check in the period reported a version. */
  on_latest_pct: number | null;
}

const DAY_MS = 86_400_000;

export function downloadStats(db: Db, options: { days: number; now: number }): DownloadStats {
  const sinceDay = new Date(options.now - (options.days - 1) * DAY_MS).toISOString().slice(0, 10);
  const checks = listUpdateChecks(db, sinceDay);
  const byVersion = new Map<string, number>();
  for (const row of checks) byVersion.set(row.version, (byVersion.get(row.version) ?? 0) + row.count);

  const releases = listVersionedReleases(db);
  const newest = new Map<string, string | null>();
  const newestFor = (channel: string, platform: string): string | null => {
    const key = `${channel}\n${platform}`;
    if (!newest.has(key)) {
      const entries = feedEntries(releases, { channel: channel as FeedChannel, platform: platform as FeedPlatform });
      newest.set(key, entries[0]?.release.version ?? null);
    }
    return newest.get(key) ?? null;
  };
  let judged = 0;
  let onLatest = 0;
  for (const row of checks) {
    const latest = newestFor(row.channel, row.platform);
    if (!isSemver(row.version) || latest === null) continue;
    judged += row.count;
    if (compareSemver(row.version, latest) >= 0) onLatest += row.count;
  }
  return {
    downloads: countDownloadsByVersion(db, sinceDay),
    checks: [...byVersion.entries()]
      .map(([version, count]) => ({ version: version === '' ? null : version, count }))
      // Most checked first; checks that reported no version last among equals.
      .sort((a, b) => b.count - a.count || (a.version === null ? 1 : 0) - (b.version === null ? 1 : 0) || (a.version ?? '').localeCompare(b.version ?? '')),
    on_latest_pct: judged === 0 ? null : Math.round((onLatest / judged) * 1000) / 10,
  };
}
