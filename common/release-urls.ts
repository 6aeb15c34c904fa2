// The gated link of a release file (issue 25): the API answers and the snapshot of the static pages give the
// same one, and the server decides at each request who may follow it (docs/product/downloads.md).

/** `/api/downloads/file/{id}` serves the release's first file; with `fileId`, that file of the release. */
export function releaseFileUrl(releaseId: number, fileId?: number): string {
  return fileId === undefined ? `/api/downloads/file/${releaseId}` : `/api/downloads/file/${releaseId}/${fileId}`;
}
