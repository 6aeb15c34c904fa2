// HTTP range requests (RFC 9110 §14) for resumable downloads and /media (video players), and the headers that name a downloaded file.
// One range per request: resuming (`bytes=N-`, what browsers and `curl -C -` send) and probing a tail
// (`bytes=-N`) need no more, and multipart/byteranges answers are a rarely used complication.

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * The range a `Range` header asks for within a file of `size` bytes: null to send the whole file (no
 * header, another unit, several ranges, or a header we do not understand, which RFC 9110 says to
 * ignore), 'unsatisfiable' for a well-formed range that lies outside the file (416).
 */
export function parseRangeHeader(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix range: the last N bytes (all of them when N exceeds the size).
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null; // invalid range-spec: ignore the header
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * If-Range (RFC 9110 §13.1.5): the range applies only while the client's copy is the same file. Ours is
 * identified by a strong ETag (its SHA-256) or, as browsers may send, the exact Last-Modified date.
 */
export function ifRangeAllowsRange(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  // Weak tags never match for ranges (strong comparison).
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return value === lastModified;
}

/** `Content-Range` of a 206. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

/**
 * `Content-Disposition: attachment` with an ASCII fallback for old clients and the exact name in
 * `filename*` (RFC 6266 / RFC 8187). Quotes, backslashes and percent signs leave the fallback: some
 * browsers percent-decode it.
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_').trim() || 'download';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(filename)}`;
}

function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The offered name of an uploaded file: its last path segment (old browsers send full paths), without
 * control characters, at most 255 characters; '' when nothing usable is left.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (cleaned === '.' || cleaned === '..') return '';
  return [...cleaned].slice(0, 255).join('');
}
