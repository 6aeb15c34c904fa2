// The account dialogs' modal without React (docs/decisions/0055-account-dialogs-without-react.md): the
// islands' Dialog (src/islands/ui/Dialog.tsx) in plain DOM, with its markup, classes and behaviour. The
// native <dialog> with showModal() puts it in the top layer and makes the page inert; Tab wraps inside it,
// Escape, the close button and a click on the backdrop ask the owner to close it (the owner's store decides,
// as with the islands), and focus goes back to whatever opened it (dialog-focus.ts).
import { focusFirstControl, restoreFocus, wrapTab } from '../../islands/ui/dialog-focus.ts';
import { element } from './form-view.ts';

export interface Modal {
  /** Where the dialog's content goes; emptied when it closes. */
  body: HTMLDivElement;
  setTitle: (title: string) => void;
  /** Opens the dialog (if closed) and focuses its first field. */
  show: () => void;
  /** Closes the dialog (if open) and gives focus back. */
  hide: () => void;
}

let modals = 0;

/** A closed modal in `container`; `onClose` is asked to close it (Escape, ×, the backdrop). */
export function createModal(container: HTMLElement, onClose: () => void): Modal {
  modals += 1;
  const titleId = `account-dialog-${modals}-title`;
  const dialog = element('dialog', 'dialog dialog--narrow');
  dialog.setAttribute('aria-labelledby', titleId);
  const title = element('h2', 'dialog__title');
  title.id = titleId;
  const close = element('button', 'dialog__close');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  const cross = element('span', undefined, '×');
  cross.setAttribute('aria-hidden', 'true');
  close.append(cross);
  close.addEventListener('click', onClose);
  const header = element('header', 'dialog__header');
  header.append(title, close);
  const body = element('div', 'dialog__body');
  const content = element('div', 'dialog__content');
  content.append(header, body);

  let shown = false;
  let opener: Element | null = null;
  let pressStartedOnBackdrop = false;
  dialog.addEventListener('cancel', (event) => {
    // Escape: the owner's store decides, so it and the element agree on whether the dialog is open.
    event.preventDefault();
    onClose();
  });
  // Browsers may refuse to cancel a repeated Escape and close anyway; follow them.
  dialog.addEventListener('close', () => shown && onClose());
  dialog.addEventListener('mousedown', (event) => {
    pressStartedOnBackdrop = event.target === dialog;
  });
  dialog.addEventListener('click', (event) => {
    // The dialog element itself is hit only on its backdrop: the content fills it edge to edge.
    if (event.target === dialog && pressStartedOnBackdrop) onClose();
  });
  dialog.addEventListener('keydown', (event) => wrapTab(event, dialog));
  container.append(dialog);

  return {
    body,
    setTitle: (text) => {
      title.textContent = text;
    },
    show: () => {
      if (!shown) {
        shown = true;
        opener = document.activeElement;
        dialog.append(content);
        // Implied by showModal(); stated for assistive technology that reads only the attribute.
        dialog.setAttribute('aria-modal', 'true');
        dialog.showModal();
      }
      focusFirstControl(dialog);
    },
    hide: () => {
      if (!shown) return;
      shown = false;
      dialog.removeAttribute('aria-modal');
      if (dialog.open) dialog.close();
      content.remove();
      body.replaceChildren();
      restoreFocus(opener);
    },
  };
}
