// The one modal dialog of the islands, on the native <dialog> element with showModal(): the browser puts
// it in the top layer, makes the rest of the page inert and gives it role=dialog with aria-modal. On top
// of that: Tab wraps inside the dialog, Escape (the cancel event) and a click on the backdrop close it
// through the owner's state, and focus goes back to whatever opened it (dialog-focus.ts).
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { focusFirstControl, restoreFocus, wrapTab } from './dialog-focus.ts';

interface DialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Widths: forms in a phone-sized column, or wider content. */
  size?: 'narrow' | 'wide';
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
      focusFirstControl(dialog);
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
      onKeyDown={(event) => wrapTab(event, event.currentTarget)}
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
