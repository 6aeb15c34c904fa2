// Where a visitor goes after logging in when they asked for a page that needs a login first
// (docs/product/routes.md#navigation-guard): the guard sends them home with `?login=<path>`, home opens the
// login dialog with a note, and the login continues to that path. Only a path of this site is ever
// followed, so a crafted link cannot send someone elsewhere after they log in (no open redirect).

export const LOGIN_PARAM = 'login';

/** The address the guard sends a logged-out visitor to: home, with the page they asked for. */
export function loginRedirect(path: string): string {
  return `/?${LOGIN_PARAM}=${encodeURIComponent(path)}`;
}

/**
 * The asked-for path when it is a path of this site (`/dashboard`, `/admin?x=1#y`), else null. Rejects
 * absolute and protocol-relative addresses (`https://evil.test`, `//evil.test`, `/\evil.test`) and
 * anything whose resolution leaves `origin`.
 */
export function safeContinuation(value: string | null | undefined, origin: string): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Browsers drop tabs and newlines from addresses and read a backslash as a slash; a plain path has none.
  if ([...value].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}#`);
}

/** The note above the login form, saying why it opened. */
export function loginNote(path: string): string {
  if (isUnder(path, '/admin')) return 'Log in to see the admin console';
  if (isUnder(path, '/dashboard')) return 'Log in to see your dashboard';
  return 'Log in to continue';
}

/** Where to go once logged in: the asked-for path, except the admin console for someone who is not an admin. */
export function afterLoginPath(path: string, isAdmin: boolean): string {
  if (isUnder(path, '/admin') && !isAdmin) return '/dashboard';
  return path;
}
