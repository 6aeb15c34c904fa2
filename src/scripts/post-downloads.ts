// The Download button of an article's attached file (docs/product/reading.md#posts-screens 'download area', docs/product/roles.md; issue 5 item 4) for
// verified readers, without React: it goes into the empty [data-download-action] container that
// src/components/PostDownload.astro leaves (download-notices.ts hides the notice for the same readers).
// The file comes through POST /api/{ns}/extrafiles/download with the loading modal's progress; the
// server checks the permission again. Admins download from the admin overlay's bar instead.
import { downloadFile } from '../lib/api/files.ts';
import { NAMESPACE_LIST, type Namespace } from '../../common/snapshot-types.ts';
import { $user, isAdminUser, type CurrentUser } from '../stores/session.ts';
import { ensureAccountRoot } from './account-root.ts';
import { downloadButton, downloadErrorElement } from './download-button.ts';
import { onEveryPage } from './page-lifecycle.ts';

function downloadControl(container: HTMLElement, id: number, namespace: Namespace): HTMLElement {
  const filename = container.closest('[data-post-download]')?.querySelector('.post-download__name')?.textContent?.trim() || `file-${id}`;
  const wrapper = document.createElement('div');
  wrapper.className = 'download-action';
  const error = downloadErrorElement();
  const download = () =>
    ensureAccountRoot()
      .catch((failure: unknown) => console.error('Could not load the loading modal', failure))
      .then(() => downloadFile(namespace, { id, filename }));
  const button = downloadButton({ label: `Download ${filename}`, className: 'button button--small', error, download });
  wrapper.append(button, error);
  return wrapper;
}

function render(user: CurrentUser | null | undefined): void {
  const wanted = Boolean(user?.email_verified_at) && !isAdminUser(user);
  for (const container of document.querySelectorAll<HTMLElement>('[data-post-download] [data-download-action]')) {
    const id = Number(container.dataset.fileId);
    const namespace = NAMESPACE_LIST.find((name) => name === container.dataset.namespace);
    if (!wanted || !namespace || !Number.isSafeInteger(id) || id <= 0) {
      container.replaceChildren();
      continue;
    }
    if (!container.firstElementChild) container.append(downloadControl(container, id, namespace));
  }
}

onEveryPage(() => {
  if (!document.querySelector('[data-post-download]')) return;
  return $user.subscribe(render);
});
