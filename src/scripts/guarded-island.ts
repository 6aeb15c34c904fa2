// The one way to mount a guarded island (/dashboard, /admin; docs/decisions/0038-guarded-islands.md): a
// small loader that waits for the current-user check (the nav bar's script puts the answer in $user) and
// imports the island's chunk only for a user it admits. A visitor it refuses on arrival is the navigation
// guard's business (account-area.ts sends them home, where the login dialog opens), so they download
// nothing of the screen. If the session ends while the screen is open (logged out elsewhere, banned,
// expired: any 401), the screen goes and a login button takes its place; logging in again brings it back.
import { loadIslandStyles, openAccountDialog } from './account-root.ts';
import { loadStylesheet } from './load-stylesheet.ts';
import { $user, type CurrentUser } from '../stores/session.ts';

/** Mounts the island's React root into the container; returns its unmount. */
export type MountIsland = (container: HTMLElement) => () => void;

export interface GuardedIsland {
  container: HTMLElement;
  /** Whether this user may see the screen. */
  admits: (user: CurrentUser) => boolean;
  /** Imports the island's chunk: called only for an admitted user. */
  load: () => Promise<MountIsland>;
  /** Sheets the island needs beside the islands' sheet, which is always loaded (`?url` imports). */
  stylesheets?: readonly string[];
  /** What shows while the current-user check runs. */
  loadingNote: () => HTMLElement;
  /** What shows when the chunk could not be loaded. */
  failedText: string;
  /** What shows, beside a Login button, once the session ended while the screen was open. */
  endedNote: (loginButton: HTMLButtonElement) => HTMLElement;
  /** A signed-in user who must do something elsewhere first: the note that says so, or nothing. */
  redirectedNote?: (user: CurrentUser) => HTMLElement | undefined;
}

/** A panel with one line of text, a polite live region, and whatever follows it (a Login button). */
export function notePanel(text: string, ...after: HTMLElement[]): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'result-panel';
  const paragraph = document.createElement('p');
  paragraph.setAttribute('role', 'status');
  paragraph.textContent = text;
  wrapper.append(paragraph, ...after);
  return wrapper;
}

function loginButton(): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  button.textContent = 'Login';
  button.setAttribute('aria-haspopup', 'dialog');
  button.addEventListener('click', () => void openAccountDialog('login'));
  return button;
}

export function mountGuardedIsland(island: GuardedIsland): void {
  const { container } = island;
  let loading: Promise<void> | undefined;
  let unmount: (() => void) | undefined;

  const mount = () => {
    loading ??= Promise.all([island.load(), loadIslandStyles(), ...(island.stylesheets ?? []).map(loadStylesheet)])
      .then(([mountIsland]) => {
        container.replaceChildren();
        unmount = mountIsland(container);
      })
      .catch((error: unknown) => {
        // A failed chunk load (offline, a new deploy) may work on a reload.
        loading = undefined;
        console.error('Could not load the screen', error);
        container.replaceChildren(notePanel(island.failedText));
      });
  };

  const show = (user: CurrentUser | null | undefined) => {
    if (user === undefined) {
      if (!container.firstChild) container.replaceChildren(island.loadingNote());
      return;
    }
    const elsewhere = user ? island.redirectedNote?.(user) : undefined;
    if (elsewhere) {
      container.replaceChildren(elsewhere);
      return;
    }
    if (user && island.admits(user)) {
      mount();
      return;
    }
    // Arriving refused is the guard's business (it sends the visitor away); this is a session that ended here.
    void loading?.then(() => {
      unmount?.();
      unmount = undefined;
      loading = undefined;
      container.replaceChildren(island.endedNote(loginButton()));
    });
  };

  $user.subscribe(show);
}
