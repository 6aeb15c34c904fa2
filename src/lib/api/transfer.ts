// Uploads and downloads with their progress in the loading overlay (docs/content-api.md, 'Extra files').
// Uploads go through XMLHttpRequest because fetch reports no upload progress.
import { finishTransfer, reportProgress } from '../../stores/loading.ts';
import { ApiError, baseHeaders, ensureXsrfCookie, failedAnswer, parseAnswerText } from './request.ts';
import { DOWNLOAD_LINK_TYPE, type DownloadLink } from '../../../common/download-link.ts';

export const CONNECTION_LOST = 'The upload failed: the connection was lost.';

/** Multipart upload; resolves with the answer, rejects with an ApiError (status 0 when the connection broke). */
export async function uploadWithProgress<T>(method: string, path: string, form: FormData, filename: string): Promise<T> {
  await ensureXsrfCookie(method);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(baseHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => reportProgress(filename, event.loaded, event.lengthComputable ? event.total : 0);
    reportProgress(filename, 0, 0);
    xhr.onload = () => {
      finishTransfer();
      const data = parseAnswerText(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else reject(failedAnswer(xhr.status, data));
    };
    xhr.onerror = () => {
      finishTransfer();
      reject(new ApiError(0, { message: CONNECTION_LOST }));
    };
    xhr.send(form);
  });
}

async function readWithProgress(response: Response, filename: string): Promise<Blob> {
  const total = Number(response.headers.get('Content-Length') ?? 0);
  const reader = response.body?.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    loaded += value.byteLength;
    reportProgress(filename, loaded, total);
  }
  return new Blob(chunks);
}

/** Hands a blob made in the page to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The name an answer gives its file: our `filename` header, else Content-Disposition's `filename="…"`. */
export function downloadName(headers: Pick<Headers, 'get'>, fallbackName: string): string {
  const own = decodeURIComponent(headers.get('filename') ?? '');
  if (own) return own;
  const quoted = /filename="([^"]+)"/i.exec(headers.get('Content-Disposition') ?? '')?.[1];
  return quoted || fallbackName;
}

/**
/**
 * Opens a presigned link of the bucket: its answer carries Content-Disposition: attachment, so the browser
 * saves the file (with its own progress, and resuming where the bucket allows) and the page stays.
 */
export function openDownloadLink(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Downloads a file through a permission-checked endpoint, then hands it to the browser under the name from
 * the `filename` header (the stored name on disk is random) or Content-Disposition. With a body it POSTs
 * it as JSON (the release and attachment downloads by id); without one it GETs the path (a release's file
 * by its own link, issue 25). When the file is in a bucket the server answers its presigned link instead
 * (common/download-link.ts), and the browser fetches the file from there itself.
 */
export async function downloadWithProgress(path: string, body: unknown, fallbackName: string): Promise<void> {
  const method = body === undefined ? 'GET' : 'POST';
  await ensureXsrfCookie(method);
  const headers: Record<string, string> = { ...baseHeaders(), Accept: `${DOWNLOAD_LINK_TYPE}, application/json;q=0.9` };
  if (method === 'POST') headers['Content-Type'] = 'application/json';
  reportProgress(fallbackName, 0, 0);
  try {
    const payload = method === 'POST' ? JSON.stringify(body) : undefined;
    const response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
    if (!response.ok) throw failedAnswer(response.status, parseAnswerText(await response.text()));
    if ((response.headers.get('Content-Type') ?? '').startsWith(DOWNLOAD_LINK_TYPE)) {
      const link = (await response.json()) as DownloadLink;
      openDownloadLink(link.url);
      return;
    }
    const filename = downloadName(response.headers, fallbackName);
    saveBlob(await readWithProgress(response, filename), filename);
  } finally {
    finishTransfer();
  }
}
