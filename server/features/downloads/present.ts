// What clients see of a release. The stored file names on disk never leave the server; everything else of
// the row is public (the static downloads page shows the same). Admins also get the download count.
// Issue 25: versions, channels, entitlement gates and several files; the fields of before describe the
// release's first file (files[0]), so clients that know nothing of files keep working.
import { publicReleaseFile, releaseFileUrl } from '../../../common/release-urls.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import type { ReleaseWithFiles } from './queries.ts';

export interface ReleaseFileView {
  id: number;
  name: string;
  size: number;
  /** Lower-case hex. */
  sha256: string;
  /** Lower-case hex; null for a file stored before issue 25 until the server has hashed it (minutes after start). */
  sha512: string | null;
  platform: ReleaseFile['platform'];
  arch: ReleaseFile['arch'];
  /** The GET-able gated link of this file. */
  url: string;
}

export interface ReleaseView {
  id: number;
  title: string;
  /** Markdown. */
  body: string;
  release: string;
  /** 0 or 1, as the other content flags of the API. */
  is_current: number;
  downloadable: number;
  /** docs/product/data-model.md: the offered file name of the first file; null when the release has no file. */
  download_url: string | null;
  /** The same name under a clearer key. */
  filename: string | null;
  has_file: boolean;
  /** Bytes of the first file; 0 without a file. */
  size: number;
  /** Lower-case hex SHA-256 of the first file; '' without a file. */
  sha256: string;
  /** The GET-able gated link of the first file (browsers, `curl -C -`); null without a file. */
  file_url: string | null;
  /** Semver `MAJOR.MINOR.PATCH[-pre]`; null: not in the update feeds. */
  version: string | null;
  channel: 'stable' | 'beta';
  released_at: string;
  /** The entitlement code a license needs to download it; null: none. */
  entitlement: string | null;
  /** Oldest first. */
  files: ReleaseFileView[];
  created_at: string;
  updated_at: string;
  /** Downloads (once per downloader, file and day); admins only. */
  download_count?: number;
}

export function presentReleaseFile(file: ReleaseFile): ReleaseFileView {
  return publicReleaseFile(file);
}

export function presentRelease(item: ReleaseWithFiles, downloadCount?: number): ReleaseView {
  const first = item.files[0];
  const view: ReleaseView = {
    id: item.id,
    title: item.title,
    body: item.body,
    release: item.release,
    is_current: item.is_current,
    downloadable: item.downloadable,
    download_url: first ? first.name : null,
    filename: first ? first.name : null,
    has_file: first !== undefined,
    size: first ? first.size : 0,
    sha256: first ? first.sha256 : '',
    file_url: first ? releaseFileUrl(item.id) : null,
    version: item.version,
    channel: item.channel,
    released_at: item.released_at,
    entitlement: item.entitlement,
    files: item.files.map(presentReleaseFile),
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
  if (downloadCount !== undefined) view.download_count = downloadCount;
  return view;
}
