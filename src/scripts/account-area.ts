// The nav bar's account area (docs/product/routes.md#navigation-bar) without React: Login and Register buttons, or the user's name
// and Logout. Anonymous readers (no `signed_in` hint cookie) get their buttons at once and no API call;
// the modal's code is fetched only when they hover, focus or click one (docs/engineering.md#keeping-public-pages-light). The same script runs the current-user check for every page, so islands read $user from
// the store instead of asking again, and applies the navigation guard of docs/product/routes.md#navigation-guard.
import { loadCurrentUser, logout } from '../lib/api/session.ts';
import { readCookie } from '../lib/cookies.ts';
import { afterLoginPath, LOGIN_PARAM, loginNote, loginRedirect, safeContinuation } from '../lib/login-continuation.ts';
import { $inboxUnread, $user, accountHomePath, isAdminUser, mustEnrollTwoFactor, setSession, type CurrentUser } from '../stores/session.ts';
import { bindAccountDialogButton, ensureAccountRoot, openAccountDialog } from './account-root.ts';
import { showQueuedSiteNotice } from './site-notice.ts';
import { renderUnverifiedBanner } from './unverified-banner.ts';

export const SIGNED_IN_HINT = 'signed_in';

function button(label: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'account-button';
  element.textContent = label;
  element.addEventListener('click', onClick);
  return element;
}

function dialogButton(label: string, mode: 'login' | 'register'): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'account-button';
  element.textContent = label;
  return bindAccountDialogButton(element, mode);
}

function renderArea(area: HTMLElement, user: CurrentUser | null | undefined): void {
  // Unknown yet (the check is running): nothing rather than buttons that might be wrong a moment later.
  if (user === undefined) {
    area.replaceChildren();
    return;
  }
  if (user === null) {
    area.replaceChildren(dialogButton('Login', 'login'), dialogButton('Register', 'register'));
    return;
  }
  const name = document.createElement('a');
  name.className = 'account-button account-button--user';
  name.href = accountHomePath(user);
  name.title = 'Go to dashboard';
  name.textContent = user.name;
  const logoutButton = button('Logout', () => {
    logoutButton.disabled = true;
    // docs/product/messages.md#error-catalogue: a failed logout is only logged; the user goes home either way.
    void logout().finally(() => window.location.assign('/'));
  });
  area.replaceChildren(name, logoutButton);
  if (isAdminUser(user)) void showInboxBadge(name);
}

/**
 * The admins' unread-inbox badge beside their name (docs/product/admin.md#inbox), from its own chunk: only admins fetch it,
 * so readers' pages carry no more script than before (docs/engineering.md#keeping-public-pages-light).
 */
async function showInboxBadge(name: HTMLElement): Promise<void> {
  const { inboxBadge } = await import('./inbox-badge.ts');
  // Redrawn meanwhile (a newer count, a logout): that drawing decides.
  if (!name.isConnected) return;
  const badge = inboxBadge($inboxUnread.get());
  if (badge) name.after(badge);
}

/**
 * docs/product/routes.md#navigation-guard on arrival: /admin needs the admin role, /dashboard a user. A
 * logged-out visitor goes home with the page asked for, where the login dialog opens (issue 14: the
 * redirect used to be silent); a signed-in user who is not an admin goes home from /admin.
 */
function guardRoute(location: Location, user: CurrentUser | null): boolean {
  const segment = location.pathname.split('/')[1] ?? '';
  // An admin who must turn two-factor on first is sent where that is done (docs/product/accounts.md#two-factor-sign-in).
  if (segment === 'admin' && mustEnrollTwoFactor(user)) {
    window.location.replace('/dashboard');
    return true;
  }
  const refused = (segment === 'admin' && !isAdminUser(user)) || (segment === 'dashboard' && !user);
  if (refused) window.location.replace(user ? '/' : loginRedirect(location.pathname + location.search + location.hash));
  return refused;
}

/** Arrived with `?login=<path>` (from the guard): ask for the login, then continue to that path of this site. */
function promptLoginOnArrival(location: Location, user: CurrentUser | null): void {
  const params = new URLSearchParams(location.search);
  if (!params.has(LOGIN_PARAM)) return;
  const next = safeContinuation(params.get(LOGIN_PARAM), location.origin);
  // The parameter has done its work: a reload or a shared link should not open the dialog again.
  params.delete(LOGIN_PARAM);
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
  if (user || !next) return;
  void openAccountDialog('login', { note: loginNote(next), onLoggedIn: (loggedIn) => window.location.assign(afterLoginPath(next, isAdminUser(loggedIn))) });
}

/** Resolves the current user: the hint cookie says whether asking is worth a request. */
async function resolveUser(root: Document): Promise<void> {
  const hinted = readCookie(SIGNED_IN_HINT) !== undefined;
  if (!hinted) {
    setSession(null);
    return;
  }
  // The new-password page logs out whoever arrives signed in (docs/product/accounts.md#password-reset), before anything shows them.
  if (root.querySelector('[data-sign-out-on-arrival]')) {
    await logout();
    return;
  }
  try {
    await loadCurrentUser();
  } catch (error) {
    console.error('Could not load the current user', error);
    setSession(null);
  }
}

function whenIdle(callback: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 2000 });
  else setTimeout(callback, 200);
}

export function enhanceAccountArea(root: Document): void {
  // A notice the previous page left (e.g. 'Your account has been deleted.'), before anything else shows.
  showQueuedSiteNotice(root);
  const area = root.querySelector<HTMLElement>('[data-account-area]');
  $user.subscribe((user) => {
    if (area) renderArea(area, user);
    renderUnverifiedBanner(root, user);
  });
  // The admin's unread count changes on /admin as items are opened: redraw the badge with it.
  $inboxUnread.listen(() => {
    if (area) renderArea(area, $user.get());
  });

  void resolveUser(root).then(() => {
    const user = $user.get() ?? null;
    if (guardRoute(root.location, user)) return;
    promptLoginOnArrival(root.location, user);
    // Pages with islands load React anyway: mount the loading modal and dialogs while the page is idle.
    if (root.querySelector('[data-island]')) whenIdle(() => void ensureAccountRoot().catch((error: unknown) => console.error(error)));
  });
}
