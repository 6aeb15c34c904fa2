// The admin's download statistics (GET /api/admin/downloads/stats, issue 25 item 5) shaped for reading:
// downloads as a table of versions by platform with totals (the chart's text alternative), update checks
// by version, and the share on the newest version in words. Pure, so it is tested on its own.
import { compareSemver, isSemver } from '../../common/semver.ts';
import type { DownloadStats } from './api/downloads.ts';
import { PLATFORM_LABELS } from './release-markup.ts';

/** A release counted without a version (one made before versions, or none set). */
export const NO_VERSION = 'No version';

export const STATS_PERIODS = [7, 30, 90, 365] as const;

export interface DownloadsByVersion {
  /** Platforms that had any download, in the order of PLATFORM_LABELS. */
  platforms: { key: string; label: string }[];
  rows: { version: string; counts: Record<string, number>; total: number }[];
  total: number;
}

const versionName = (version: string | null) => version || NO_VERSION;

/**
 * Newest first, the unversioned last: in semver order where both are versions (common/semver.ts, the update
 * API's own: a pre-release below its release, 3.2.0-beta.1 after 3.2.0), else by their dotted numbers (a
 * version the software reported that is not one).
 */
function compareVersions(a: string, b: string): number {
  if (a === NO_VERSION || b === NO_VERSION) return a === b ? 0 : a === NO_VERSION ? 1 : -1;
  if (isSemver(a) && isSemver(b)) return compareSemver(b, a);
  return b.localeCompare(a, 'en', { numeric: true });
}

export function downloadsByVersion(downloads: DownloadStats['downloads']): DownloadsByVersion {
  const known = Object.keys(PLATFORM_LABELS);
  const seen = new Set(downloads.map((entry) => entry.platform));
  const platforms = [...known.filter((key) => seen.has(key)), ...[...seen].filter((key) => !known.includes(key)).sort()].map((key) => ({
    key,
    label: (PLATFORM_LABELS as Record<string, string>)[key] ?? key,
  }));
  const rows = new Map<string, Record<string, number>>();
  for (const entry of downloads) {
    const counts = rows.get(versionName(entry.version)) ?? {};
    counts[entry.platform] = (counts[entry.platform] ?? 0) + entry.count;
    rows.set(versionName(entry.version), counts);
  }
  const list = [...rows]
    .map(([version, counts]) => ({ version, counts, total: Object.values(counts).reduce((sum, count) => sum + count, 0) }))
    .sort((a, b) => compareVersions(a.version, b.version));
  return { platforms, rows: list, total: list.reduce((sum, row) => sum + row.total, 0) };
}

export function checksByVersion(checks: DownloadStats['checks']): { version: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const entry of checks) counts.set(versionName(entry.version), (counts.get(versionName(entry.version)) ?? 0) + entry.count);
  return [...counts].map(([version, count]) => ({ version, count })).sort((a, b) => compareVersions(a.version, b.version));
}

/** "62% of the update checks came from the newest version." or why there is no figure. */
export function onLatestText(pct: number | null, days: number): string {
  if (pct === null) return `No update checks in the last ${days} days.`;
  return `${Math.round(pct)}% of the update checks in the last ${days} days came from the newest version.`;
}
