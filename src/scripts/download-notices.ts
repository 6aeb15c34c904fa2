// The notice in an article's download area follows who is reading (docs/product/roles.md): the static page carries
// the anonymous text; a signed-in but unverified reader gets 'Only verified user can use download!';
// for a verified reader the notice goes, and the download work puts its button into the empty
// [data-download-action] container next to it. The user comes from the shared session store that the
// nav bar's account script fills, so this asks the API nothing.
import { downloadNotice } from '../lib/download-notice';
import { NAMESPACE_LIST } from '../../common/snapshot-types';
import { $user, type CurrentUser } from '../stores/session';
import { onEveryPage } from './page-lifecycle';

function render(user: CurrentUser | null | undefined): void {
  for (const notice of document.querySelectorAll<HTMLElement>('[data-post-download] [data-download-notice]')) {
    const namespace = NAMESPACE_LIST.find((name) => name === notice.closest<HTMLElement>('[data-post-download]')?.dataset.namespace) ?? 'tutorials';
    const text = downloadNotice(user, namespace);
    notice.hidden = text === null;
    if (text !== null && notice.textContent !== text) notice.textContent = text;
  }
}

onEveryPage(() => {
  if (!document.querySelector('[data-post-download]')) return;
  return $user.subscribe(render);
});
