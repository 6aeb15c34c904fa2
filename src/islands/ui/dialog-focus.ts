// Focus inside the modal dialogs, free of React: the islands' Dialog (Dialog.tsx) and the account dialogs
// without React (src/scripts/account-dialogs/modal.ts) both use it, so Tab wraps, the first control is
// chosen and focus goes back the same way in every dialog of the site.

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.hasAttribute('disabled') && element.getClientRects().length > 0);
}

/** The first field (marked data-autofocus) or the first control, rather than the close button in the corner. */
export function focusFirstControl(dialog: HTMLElement): void {
  const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(dialog).find((element) => !element.classList.contains('dialog__close'));
  first?.focus();
}

/**
 * Back to whatever opened the dialog, or, when that has disappeared (e.g. inside the collapsed mobile menu),
 * to the menu button, else the main content.
 */
export function restoreFocus(previous: Element | null): void {
  const meaningful = previous instanceof HTMLElement && previous !== document.body && previous !== document.documentElement;
  if (meaningful && previous.isConnected && previous.getClientRects().length > 0) {
    previous.focus();
    return;
  }
  const menuButton = document.querySelector<HTMLElement>('[data-nav-toggle]');
  if (menuButton && menuButton.getClientRects().length > 0) menuButton.focus();
  else document.querySelector<HTMLElement>('#main-content')?.focus();
}

interface TabKey {
  key: string;
  shiftKey: boolean;
  preventDefault: () => void;
}

/** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
export function wrapTab(event: TabKey, dialog: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const items = focusables(dialog);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
