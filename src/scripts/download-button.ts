// The Download button both the downloads page and an article's attached file use: the loading modal
// (React) is fetched on the first sign of interest, a second click while a download runs is ignored, a
// failure is shown in the alert element, and focus returns to the button afterwards.
import { preloadAccountRoot } from './account-root.ts';
import { downloadErrorMessage } from './release-download.ts';

/** The live region a failure is written to; present before any text so it is announced when it appears. */
export function downloadErrorElement(): HTMLParagraphElement {
  const error = document.createElement('p');
  error.className = 'download-action__error';
  error.setAttribute('role', 'alert');
  return error;
}

export function downloadButton(options: { label: string; className: string; error: HTMLElement; download: () => Promise<void> }): HTMLButtonElement {
  const { error } = options;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = options.className;
  button.textContent = 'Download';
  button.setAttribute('aria-label', options.label);
  button.addEventListener('pointerenter', preloadAccountRoot, { once: true });
  button.addEventListener('focus', preloadAccountRoot, { once: true });
  button.addEventListener('click', () => {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    error.textContent = '';
    options
      .download()
      .catch((failure: unknown) => {
        error.textContent = downloadErrorMessage(failure);
      })
      .finally(() => {
        button.removeAttribute('aria-disabled');
        // The modal took focus while it was open; give it back to the button the reader pressed.
        button.focus();
      });
  });
  return button;
}
