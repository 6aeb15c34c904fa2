// How the downloads page fetches a release file (issue 6 item 4), shared by the readers' buttons
// (downloads-page.ts) and the admin island. Two ways, chosen by size:
// - below NATIVE_DOWNLOAD_FROM_BYTES: POST /api/downloads/download {id} read as a stream, with the loading
//   modal's file name, size and percentage (docs/product/routes.md#navigation-bar, docs/product/states.md). The bytes collect in memory before the
//   browser saves them, which is fine for installers of some megabytes;
// - from that size on: a plain link to the gated GET /api/downloads/file/{id} (or, for one file of several,
//   its own /api/downloads/file/{id}/{fileId}, which the smaller ones are fetched from as well). The browser streams it to
//   disk with its own progress and can resume a cut download; holding a gigabyte in a tab's memory could not.
import { ApiError } from '../lib/api/request.ts';
import { downloadReleaseFile } from '../lib/api/downloads.ts';
import { ensureAccountRoot } from './account-root.ts';

export const NATIVE_DOWNLOAD_FROM_BYTES = 200 * 1024 * 1024;

export interface DownloadTarget {
  id: number;
  /** The offered file name; the server's `filename` header wins when it answers. */
  filename: string;
  size: number;
  /** One file of a release with several (issue 25): its own gated link, `/api/downloads/file/{id}/{fileId}`. */
  fileUrl?: string | undefined;
}

/** The gated GET link of a release's first file, or of the target's own file. */
export function fileUrl(id: number, ownUrl?: string): string {
  return ownUrl ?? `/api/downloads/file/${id}`;
}

export function prefersNativeDownload(size: number): boolean {
  return size >= NATIVE_DOWNLOAD_FROM_BYTES;
}

/** What the reader sees when a download fails: the server's own words (the 401/403 messages of docs/product/roles.md). */
export function downloadErrorMessage(error: unknown): string {
  if (error instanceof ApiError)
    return error.status === 0 || !error.body.message ? `The download failed (status ${error.status}). Please try again.` : error.body.message;
  return 'The download failed: the connection was lost. Please try again.';
}

/** Streams a release through the POST endpoint with the loading modal; rejects with an ApiError. */
export async function downloadRelease(target: DownloadTarget): Promise<void> {
  try {
    // The modal lives in the account root; without it the download still works, only unseen.
    await ensureAccountRoot();
  } catch (error) {
    console.error('Could not load the loading modal', error);
  }
  // The client fetches a fresh XSRF cookie first when the reader's has expired (a POST without it answers 419).
  await downloadReleaseFile(target);
}
