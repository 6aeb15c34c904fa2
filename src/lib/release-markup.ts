// The one definition of how a release reads, shared by the readers' static markup
// (src/components/DownloadCard.astro, PreviousReleases.astro) and the admin's list from the API
// (src/islands/downloads/AdminReleaseList.tsx), which must look the same (docs/product/downloads.md#downloads-page):
// the card's class, the version shown, the file's facts and the Previous Releases table's columns. The
// tags stay with each side (Astro renders the body at build time, the island from the API), the rules here.
import { formatBytes } from './page-meta.ts';

/** The release number is hidden when it is '0' (or empty). */
export function shownVersion(release: string): string {
  const value = release.trim();
  return value === '0' ? '' : value;
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
export function releaseFileFacts(release: ReleaseFile): { filename: string; size: string; sha256: string | null; copyLabel: string } | null {
  if (!release.filename) return null;
  return {
    filename: release.filename,
    size: formatBytes(release.size),
    sha256: release.sha256 || null,
    copyLabel: `Copy the SHA-256 of ${release.filename}`,
  };
}

/** The Previous Releases table's columns readers see; the admin's table adds its own after them. */
export const PREVIOUS_RELEASES_COLUMNS = ['Title', 'Version', 'Description'] as const;
