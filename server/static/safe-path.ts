// One decision, used by the static fast path and /media alike: which request paths may be looked up at
// all. Traversal tricks (`..`, encoded dots or slashes, backslashes, NUL) are refused outright, so they
// answer 404 instead of reaching a router that might normalise them into something servable.

/** The decoded path, or null when the raw path is malformed or tries to leave its directory. */
export function decodeSafePath(rawPath: string): string | null {
  if (!rawPath.startsWith('/')) return null;
  if (rawPath.includes('\\') || rawPath.includes('\0')) return null;
  let decoded = rawPath;
  if (rawPath.includes('%')) {
    // Encoded dots, slashes, backslashes and NUL never occur in our own URLs; they only hide traversal.
    if (/%(2e|2f|5c|00)/i.test(rawPath)) return null;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return null;
    }
    if (decoded.includes('\\') || decoded.includes('\0')) return null;
  }
  for (const segment of decoded.split('/')) if (segment === '..' || segment === '.') return null;
  return decoded;
}

/** The path part of a request target (`/a/b?x=1` → `/a/b`). */
export function pathOfUrl(url: string): string {
  const query = url.indexOf('?');
  const hash = url.indexOf('#');
  const end = query === -1 ? hash : hash === -1 ? query : Math.min(query, hash);
  return end === -1 ? url : url.slice(0, end);
}
