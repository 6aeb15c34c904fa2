// The full-screen loading modal of docs/product/routes.md#navigation-bar, docs/product/states.md, driven by
// the $loading store: a spinner while requests run and, for uploads and downloads, the file name, its size
// and a 0–100 progress bar. A native modal <dialog> so it sits above any other open dialog (both live in the
// top layer, the newest on top). Plain requests show it only after a short delay: most answer in a few
// milliseconds, and a spinner flashing (and a screen reader announcing it) on every click helps nobody.
import { formatBytes } from '../../lib/format.ts';
import { $loading, type LoadingState } from '../../stores/loading.ts';
import { element } from './form-view.ts';

const SHOW_AFTER_MS = 400;

export function mountLoadingModal(container: HTMLElement): void {
  const dialog = element('dialog', 'loading-modal');
  dialog.setAttribute('aria-label', 'Loading');
  dialog.tabIndex = -1;
  dialog.addEventListener('cancel', (event) => event.preventDefault());

  // Built once and updated in place, so a progress step changes text rather than replacing the live region.
  const content = element('div', 'loading-modal__content');
  content.setAttribute('role', 'status');
  const spinner = element('span', 'spinner');
  spinner.setAttribute('aria-hidden', 'true');
  const label = element('p', 'loading-modal__label');
  const name = element('span', 'loading-modal__name');
  const size = element('span', 'loading-modal__size');
  const file = element('p', 'loading-modal__file');
  const bar = element('div', 'progress__bar');
  const progress = element('div', 'progress');
  progress.setAttribute('role', 'progressbar');
  progress.setAttribute('aria-label', 'Progress');
  progress.setAttribute('aria-valuemin', '0');
  progress.setAttribute('aria-valuemax', '100');
  progress.append(bar);
  const percent = element('p', 'loading-modal__percent');
  percent.setAttribute('aria-hidden', 'true');
  const details = element('div', 'loading-modal__details');
  details.append(file, progress, percent);
  content.append(spinner, label);
  container.append(dialog);

  const render = (state: LoadingState, shown: boolean) => {
    if (!shown) {
      if (dialog.open) dialog.close();
      content.remove();
      return;
    }
    label.textContent = state.showDetails ? 'Transferring…' : 'Loading…';
    if (state.showDetails) {
      name.textContent = state.filename;
      size.textContent = ` (${formatBytes(state.filesize)})`;
      file.replaceChildren(...(state.filesize > 0 ? [name, size] : [name]));
      progress.setAttribute('aria-valuenow', String(state.progress));
      bar.style.width = `${state.progress}%`;
      percent.textContent = `${state.progress}%`;
      content.append(details);
    } else {
      details.remove();
    }
    if (!content.isConnected) dialog.append(content);
    if (!dialog.open) dialog.showModal();
  };

  // The delay starts once per loading episode: a plain request shows the modal only if it is still running.
  let visible = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  $loading.subscribe((state) => {
    if (!state.show) {
      clearTimeout(timer);
      timer = undefined;
      visible = false;
    } else if (state.showDetails) {
      visible = true;
    } else {
      timer ??= setTimeout(() => {
        visible = true;
        const current = $loading.get();
        render(current, current.show);
      }, SHOW_AFTER_MS);
    }
    render(state, visible && state.show);
  });
}
