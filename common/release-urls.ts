// The gated link of a release file (issue 25): the API answers and the snapshot of the static pages give the
// same one, and the server decides at each request who may follow it (docs/product/downloads.md).

/** `/api/downloads/file/{id}` serves the release's first file; with `fileId`, that file of the release. */
export function releaseFileUrl(releaseId: number, fileId?: number): string {
  return fileId === undefined ? `/api/downloads/file/${releaseId}` : `/api/downloads/file/${releaseId}/${fileId}`;
}

/** The stored file's columns a reader may see (never its stored name). */
type PublicFileFields = 'id' | 'name' | 'size' | 'sha256' | 'sha512' | 'platform' | 'arch';

/**
 * A release file as the API answers and the snapshot both show it: its public columns and its gated link.
 * One shape for both, so the static page and the islands read the same file objects.
 */
export function publicReleaseFile<File extends { [Key in PublicFileFields]: unknown } & { download_item_id: number; id: number }>(
  file: File,
): Pick<File, PublicFileFields> & { url: string } {
  return {
    id: file.id,
    name: file.name,
    size: file.size,
    sha256: file.sha256,
    sha512: file.sha512,
    platform: file.platform,
    arch: file.arch,
    url: releaseFileUrl(file.download_item_id, file.id),
  };
}
