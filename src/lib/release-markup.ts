// The one definition of how a release reads, shared by the readers' static markup
// (src/components/DownloadCard.astro, PreviousReleases.astro) and the admin's list from the API
// (src/islands/downloads/AdminReleaseList.tsx), which must look the same (docs/product/downloads.md#downloads-page):
// the card's class, the version shown, the file's facts and the Previous Releases table's columns. The
// tags stay with each side (Astro renders the body at build time, the island from the API), the rules here.
import { formatBytes } from './format.ts';
import { formatDate as formatLongDate } from './page-meta.ts';
import type { ReleaseArch, ReleaseChannel, ReleasePlatform } from './api/downloads.ts';

/** The release number is hidden when it is '0' (or empty). */
export function shownVersion(release: string): string {
  const value = release.trim();
  return value === '0' ? '' : value;
}

/** The version a card names: the release number, or where it has none its semantic version (issue 25). */
export function displayedVersion(item: { release: string; version?: string | null }): string {
  return shownVersion(item.release) || (item.version ?? '');
}

/** The card's class: the current release stands out. */
export function releaseCardClass(isCurrent: boolean): string {
  return isCurrent ? 'download-card download-card--current' : 'download-card';
}

export interface ReleaseFile {
  filename: string | null;
  size: number;
  sha256: string | null;
}

/** The card's File / Size / SHA-256 list, or null when the release has no file. */
export function releaseFileFacts(release: ReleaseFile): { filename: string; size: string; sha256: string | null } | null {
  if (!release.filename) return null;
  return {
    filename: release.filename,
    size: formatBytes(release.size),
    sha256: release.sha256 || null,
  };
}

/** The Previous Releases table's columns readers see; the admin's table adds its own after them. */
export const PREVIOUS_RELEASES_COLUMNS = ['Title', 'Version', 'Description'] as const;

// Issue 25: versions, channels, entitlement gates and files per platform. A release that uses none of
// these reads exactly as before (usesReleaseFeatures); one that does shows its facts and one row per file.

/** Names of the platforms and architectures, keyed by the server's values so a new one fails to compile here. */
export const PLATFORM_LABELS: Record<ReleasePlatform, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux', any: 'All platforms' };
export const ARCH_LABELS: Record<ReleaseArch, string> = { x64: 'x64', arm64: 'ARM64', universal: 'Universal' };

export interface PlatformFile {
  platform: ReleasePlatform;
  arch: ReleaseArch;
}

/** "Windows x64", "macOS Universal", "All platforms" (any platform, universal: the first file of old releases). */
export function platformLabel(file: PlatformFile): string {
  if (file.arch === 'universal') return PLATFORM_LABELS[file.platform];
  return `${PLATFORM_LABELS[file.platform]} ${ARCH_LABELS[file.arch]}`;
}

export interface ReleaseFeatures {
  version: string | null;
  channel: ReleaseChannel;
  entitlement: string | null;
  files: readonly PlatformFile[];
}

/** Whether a release uses anything of issue 25; one that does not keeps today's card. */
export function usesReleaseFeatures(release: ReleaseFeatures): boolean {
  const [first, ...others] = release.files;
  return (
    release.version !== null ||
    release.channel !== 'stable' ||
    release.entitlement !== null ||
    others.length > 0 ||
    (first !== undefined && (first.platform !== 'any' || first.arch !== 'universal'))
  );
}

/** Only some signed-in users may download it: it needs an entitlement, or (beta) the BETA one. */
export function isGatedRelease(release: Pick<ReleaseFeatures, 'channel' | 'entitlement'>): boolean {
  return release.entitlement !== null || release.channel === 'beta';
}

/** "Released 12 March 2027". */
export function releasedText(releasedAt: string): string {
  return `Released ${formatLongDate(releasedAt)}`;
}

/** What a release's gate asks of a license, in words: the types that give the code where known, else the code. */
export function entitlementText(code: string, typeNames: readonly string[] = []): string {
  if (typeNames.length === 0) return `For licenses that include ${code}`;
  return `For licenses that include ${code} (${typeNames.join(', ')})`;
}

/** A download button's accessible name: "Download Gauge Studio 3.1.0 for Windows x64". */
export function fileDownloadLabel(title: string, file: PlatformFile): string {
  return `Download ${title} for ${platformLabel(file)}`;
}

/** A file's size as the cards show it ("12 MB"). */
export const fileSizeText = (size: number): string => formatBytes(size);

/** A release as a button names it: its title, with its version where the title does not already say it. */
export function releaseName(release: { title: string; release: string; version?: string | null }): string {
  const version = displayedVersion(release);
  return version && !release.title.includes(version) ? `${release.title} ${version}` : release.title;
}

/** "Maintenance until 12 March 2027", or that updates come without an end. */
export function maintenanceText(maintenanceUntil: string | null): string {
  return maintenanceUntil ? `Maintenance until ${formatLongDate(maintenanceUntil)}` : 'Maintenance without end date';
}
