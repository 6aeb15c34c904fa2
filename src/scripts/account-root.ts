// Loads the account UI on demand: the login/registration modal, the 'Verification sent' notice and the
// full-screen loading modal (./account-dialogs/, plain DOM, no React: docs/decisions/0055-account-dialogs-without-react.md),
// all in one container appended to <body>. Public pages fetch it only when the reader asks for one of these
// (docs/engineering.md#keeping-public-pages-light); pages that hydrate islands mount it early so requests
// can show the loading modal.
import { showAccountDialog, type AccountDialogMode, type AccountDialogOptions } from '../stores/account-dialog.ts';
import { loadStylesheet } from './load-stylesheet.ts';
// Only the URL: importing the sheet itself would make Astro add it to every page that has the nav bar.
import islandStylesUrl from '../styles/islands.css?url';

let mounting: Promise<void> | undefined;

/**
 * The islands' sheet, for every script that shows a dialog or an island on a page (the account dialogs, the
 * admin overlay, the guarded islands): island pages link it already (their frontmatter imports it); static pages get it now.
 * One importer of its URL keeps that URL in this chunk, which every page loads, instead of a file of its own.
 */
export function loadIslandStyles(): Promise<void> {
  return loadStylesheet(islandStylesUrl);
}

/** Mounts the account dialogs once; later calls share the first one's promise. */
export function ensureAccountRoot(): Promise<void> {
  mounting ??= Promise.all([import('./account-dialogs/index.ts'), loadIslandStyles()])
    .then(([{ mountAccountDialogs }]) => {
      const container = document.createElement('div');
      container.id = 'account-root';
      document.body.append(container);
      mountAccountDialogs(container);
    })
    .catch((error: unknown) => {
      // A failed chunk load (offline, new deploy) may succeed on the next click.
      mounting = undefined;
      throw error;
    });
  return mounting;
}

/** Starts downloading the chunk (on hover or focus) so the click that follows opens at once. */
export function preloadAccountRoot(): void {
  ensureAccountRoot().catch((error: unknown) => console.error('Could not load the account dialogs', error));
}

/** Opens a dialog, loading the account dialogs first when needed. */
export async function openAccountDialog(mode: AccountDialogMode, options: AccountDialogOptions = {}): Promise<void> {
  // Set first: the dialogs show whatever the store holds when they mount.
  showAccountDialog(mode, options);
  try {
    await ensureAccountRoot();
  } catch (error) {
    console.error('Could not load the account dialogs', error);
    window.alert('The login form could not be loaded. Please check your connection and try again.');
  }
}

/**
 * Makes a button open the login or registration dialog (the nav bar's and the downloads warning's): hover
 * or focus is the first sign of interest, so the chunk starts downloading then and the click opens at once.
 */
export function bindAccountDialogButton(element: HTMLButtonElement, mode: 'login' | 'register', options: AccountDialogOptions = {}): HTMLButtonElement {
  element.setAttribute('aria-haspopup', 'dialog');
  element.addEventListener('pointerenter', preloadAccountRoot, { once: true });
  element.addEventListener('focus', preloadAccountRoot, { once: true });
  element.addEventListener('click', () => void openAccountDialog(mode, options));
  return element;
}
