// /admin's loader: the console (React and every admin tool, its own chunk) is fetched only once the
// current-user check says an admin is here; anyone else is sent home by the navigation guard
// (account-area.ts, docs/product/routes.md#navigation-guard) and never downloads it. If the admin's session ends while the page is
// open (logged out elsewhere, banned, expired: any 401), the console goes and a login button takes its
// place; logging in again as an admin brings the console back.
import { openAccountDialog } from './account-root.ts';
import { $user, isAdminUser, mustEnrollTwoFactor, type CurrentUser } from '../stores/session.ts';
import { loadStylesheet } from './load-stylesheet.ts';
// Only the URLs: a sheet imported from the console's modules would be linked from every public page.
import islandStylesUrl from '../styles/islands.css?url';
import adminConsoleStylesUrl from '../styles/admin-console.css?url';

const container = document.querySelector<HTMLElement>('#admin-app[data-island]');

let loading: Promise<void> | undefined;
let unmount: (() => void) | undefined;

function note(text: string, withLogin = false): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'result-panel';
  const paragraph = document.createElement('p');
  paragraph.setAttribute('role', 'status');
  paragraph.textContent = text;
  wrapper.append(paragraph);
  if (withLogin) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button';
    button.textContent = 'Login';
    button.setAttribute('aria-haspopup', 'dialog');
    button.addEventListener('click', () => void openAccountDialog('login'));
    wrapper.append(button);
  }
  return wrapper;
}

function mountConsole(target: HTMLElement): void {
  loading ??= Promise.all([import('../islands/admin-console/AdminConsole.tsx'), loadStylesheet(islandStylesUrl), loadStylesheet(adminConsoleStylesUrl)])
    .then(([{ mountAdminConsole }]) => {
      target.replaceChildren();
      unmount = mountAdminConsole(target);
    })
    .catch((error: unknown) => {
      // A failed chunk load (offline, a new deploy) may work on a reload.
      loading = undefined;
      console.error('Could not load the admin screen', error);
      target.replaceChildren(note('The admin screen could not be loaded. Please check your connection and reload the page.'));
    });
}

function show(target: HTMLElement, user: CurrentUser | null | undefined): void {
  if (user === undefined) {
    if (!target.firstChild) target.replaceChildren(note('Loading the admin screen…'));
    return;
  }
  // The navigation guard sends an admin who must turn two-factor on first to the dashboard
  // (docs/product/accounts.md#two-factor-sign-in); the console, whose every call would be refused, is not loaded.
  if (mustEnrollTwoFactor(user)) {
    target.replaceChildren(note('Two-factor sign-in is required for administrators. Turn it on in your dashboard.'));
    return;
  }
  if (isAdminUser(user)) {
    mountConsole(target);
    return;
  }
  // Arriving without the role is the guard's business (it sends the visitor home); this is a session
  // that ended here.
  void loading?.then(() => {
    unmount?.();
    unmount = undefined;
    loading = undefined;
    target.replaceChildren(note('Your session has ended. Log in as an administrator to use this screen.', true));
  });
}

if (container) $user.subscribe((user) => show(container, user));
