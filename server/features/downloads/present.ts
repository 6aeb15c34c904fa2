// What clients see of a release. The stored file name on disk never leaves the server; everything else of
// the row is public (the static downloads page shows the same). Admins also get the download count.
import type { DownloadItem } from '../../db/schema.ts';

export interface ReleaseView {
  id: number;
  title: string;
  /** Markdown. */
  body: string;
  release: string;
  /** 0 or 1, as the other content flags of the API. */
  is_current: number;
  downloadable: number;
  /** docs/product/data-model.md: the offered file name; null when the release has no file. */
  download_url: string | null;
  /** The same name under a clearer key. */
  filename: string | null;
  has_file: boolean;
  /** Bytes; 0 without a file. */
  size: number;
  /** Lower-case hex SHA-256 of the file; '' without a file. */
  sha256: string;
  /** The GET-able gated link (browsers, `curl -C -`); null without a file. */
  file_url: string | null;
  created_at: string;
  updated_at: string;
  /** Completed downloads; admins only. */
  download_count?: number;
}

export function releaseFileUrl(id: number): string {
  return `/api/downloads/file/${id}`;
}

export function presentRelease(item: DownloadItem, downloadCount?: number): ReleaseView {
  const hasFile = item.stored_name !== null && item.download_url !== null;
  const view: ReleaseView = {
    id: item.id,
    title: item.title,
    body: item.body,
    release: item.release,
    is_current: item.is_current,
    downloadable: item.downloadable,
    download_url: hasFile ? item.download_url : null,
    filename: hasFile ? item.download_url : null,
    has_file: hasFile,
    size: hasFile ? item.size : 0,
    sha256: hasFile ? item.sha256 : '',
    file_url: hasFile ? releaseFileUrl(item.id) : null,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
  if (downloadCount !== undefined) view.download_count = downloadCount;
  return view;
}
