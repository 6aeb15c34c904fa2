// The one modal dialog of the islands, on the native <dialog> element with showModal(): the browser puts
// it in the top layer, makes the rest of the page inert and gives it role=dialog with aria-modal. On top
// of that: Tab wraps inside the dialog, Escape (the cancel event) and a click on the backdrop close it
// through the owner's state, and focus goes back to whatever opened it (or, when that has disappeared,
// e.g. inside the collapsed mobile menu, to the menu button).
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Widths: forms in a phone-sized column, or wider content. */
  size?: 'narrow' | 'wide';
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.hasAttribute('disabled') && element.getClientRects().length > 0);
}

function restoreFocus(previous: Element | null): void {
  const meaningful = previous instanceof HTMLElement && previous !== document.body && previous !== document.documentElement;
  if (meaningful && previous.isConnected && previous.getClientRects().length > 0) {
    previous.focus();
    return;
  }
  const menuButton = document.querySelector<HTMLElement>('[data-nav-toggle]');
  if (menuButton && menuButton.getClientRects().length > 0) menuButton.focus();
  else document.querySelector<HTMLElement>('#main-content')?.focus();
}

/** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
function wrapTab(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== 'Tab') return;
  const items = focusables(event.currentTarget);
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

export function Dialog({ title, open, onClose, children, size = 'narrow' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const pressStartedOnBackdrop = useRef(false);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      // The first field (or the first control) rather than the close button in the corner.
      const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(dialog).find((element) => !element.classList.contains('dialog__close'));
      first?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      restoreFocus(opener.current);
    }
  }, [open]);

  // Closed by unmounting while open (e.g. the page moved on): leave the top layer cleanly.
  useEffect(() => {
    const dialog = ref.current;
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${size}`}
      aria-labelledby={titleId}
      // Implied by showModal(); stated for assistive technology that reads only the attribute.
      aria-modal={open || undefined}
      onCancel={(event) => {
        // Escape: let the owner's state decide, so React and the element agree on whether it is open.
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        // Browsers may refuse to cancel a repeated Escape and close anyway; follow them.
        if (open) onClose();
      }}
      onMouseDown={(event) => {
        pressStartedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        // The dialog element itself is hit only on its backdrop: the content fills it edge to edge.
        if (event.target === event.currentTarget && pressStartedOnBackdrop.current) onClose();
      }}
      onKeyDown={wrapTab}
    >
      {open && (
        <div className="dialog__content">
          <header className="dialog__header">
            <h2 className="dialog__title" id={titleId}>
              {title}
            </h2>
            <button type="button" className="dialog__close" onClick={onClose} aria-label="Close">
              <span aria-hidden="true">×</span>
            </button>
          </header>
          <div className="dialog__body">{children}</div>
        </div>
      )}
    </dialog>
  );
}
