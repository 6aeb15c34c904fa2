// A one-time notice shown on the next page a flow sends the visitor to (after deleting the account, the
// home page says so; docs/product/accounts.md#your-data). The flow queues the text in sessionStorage and
// navigates; the nav bar's script (account-area.ts), which runs on every page, static ones included,
// shows it under the header in plain DOM and forgets it, so a reload does not repeat it.
const STORAGE_KEY = 'site-notice';

/** Keeps `text` for the next page of this tab. */
export function queueSiteNotice(text: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, text);
  } catch (error) {
    // Storage refused (a private mode): the flow still completes, without the notice.
    console.error('Could not keep the notice for the next page', error);
  }
}

function takeQueuedNotice(): string | null {
  try {
    const text = sessionStorage.getItem(STORAGE_KEY);
    sessionStorage.removeItem(STORAGE_KEY);
    return text;
  } catch {
    return null;
  }
}

/** Shows the queued notice, if any, under the site header; it takes focus so a screen reader reads it first. */
export function showQueuedSiteNotice(root: Document): void {
  const text = takeQueuedNotice();
  if (!text) return;
  const notice = root.createElement('div');
  notice.className = 'site-notice';
  notice.setAttribute('role', 'status');
  notice.tabIndex = -1;
  const message = root.createElement('p');
  message.className = 'site-notice__text';
  message.textContent = text;
  const dismiss = root.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'link-button site-notice__dismiss';
  dismiss.textContent = 'Dismiss';
  dismiss.setAttribute('aria-label', 'Dismiss this notice');
  dismiss.addEventListener('click', () => {
    notice.remove();
    root.querySelector<HTMLElement>('#main-content')?.focus();
  });
  message.append(' ', dismiss);
  notice.append(message);
  const header = root.querySelector('.site-header');
  if (header) header.after(notice);
  else root.body.prepend(notice);
  notice.focus();
}
