// How a download route answers when its file is in a bucket (docs/decisions/0050-object-storage.md): after
// its own checks, 302 to a presigned GET of the bucket. A browser's fetch cannot follow that redirect to
// another origin without CORS on the bucket, which we never grant; so our own pages ask for the link
// itself with this media type in Accept and open it (Content-Disposition: attachment keeps them on the page).
export const DOWNLOAD_LINK_TYPE = 'application/vnd.site.download-link+json';

/** The answer for DOWNLOAD_LINK_TYPE: the presigned link, the file's name, and how long the link works. */
export interface DownloadLink {
  url: string;
  filename: string;
  expires_in: number;
}
