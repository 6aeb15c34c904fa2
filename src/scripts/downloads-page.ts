// The downloads page's behaviour (docs/product/downloads.md#downloads-page, issue 6 item 4) without React for readers: the static
// page is what an anonymous visitor needs, so this only adapts it to whoever is signed in, using the
// user the nav bar's account script already loaded (no extra API call):
// - the warning says where the visitor stands (issue 14): anonymous visitors keep the static text with its
//   Login and Register buttons, unverified users read 'Only verified user can use download!' with the
//   resend link, verified ones see none;
// - verified users get a Download button (or, for very large files, a native link) on each card;
// - admins get the admin island (its own chunk, loaded only for them), which takes over the list.
// The copy buttons of the SHA-256 values work for everyone.
import { $user, isAdminUser, type CurrentUser } from '../stores/session.ts';
import { bindAccountDialogButton } from './account-root.ts';
import { enableCopyButtons } from './copy-buttons.ts';
import { downloadRelease, fileUrl, prefersNativeDownload, type DownloadTarget } from './release-download.ts';
import { downloadButton, downloadErrorElement } from './download-button.ts';
import { verificationResendButton } from './verification-resend.ts';

export const DOWNLOAD_WARNINGS = {
  anonymous: 'You must login to download software!',
  unverified: 'Only verified user can use download!',
  verify: 'Verify your e-mail: follow the link we sent you, or ask for a new one.',
} as const;

type Reader = 'checking' | 'anonymous' | 'unverified' | 'verified';

function readerOf(user: CurrentUser | null | undefined): Reader {
  if (user === undefined) return 'checking';
  if (user === null) return 'anonymous';
  return user.email_verified_at ? 'verified' : 'unverified';
}

/** The static Login and Register buttons open the dialog (bound once; the markup is the anonymous view). */
function bindDialogButtons(warning: HTMLElement): void {
  for (const button of warning.querySelectorAll<HTMLButtonElement>('[data-account-dialog]')) {
    const mode = button.dataset.accountDialog === 'register' ? 'register' : 'login';
    bindAccountDialogButton(button, mode);
  }
}

/** The unverified view: why there is no download, and the resend link (docs/product/downloads.md#downloads-page). */
function unverifiedContent(): HTMLElement[] {
  const text = document.createElement('p');
  text.className = 'download-warning__text';
  text.textContent = DOWNLOAD_WARNINGS.unverified;
  const verify = document.createElement('p');
  verify.className = 'download-warning__verify';
  const status = document.createElement('p');
  status.className = 'download-warning__status';
  status.setAttribute('role', 'status');
  verify.append(`${DOWNLOAD_WARNINGS.verify} `, verificationResendButton(document, { status }));
  return [text, verify, status];
}

function renderWarning(page: HTMLElement, reader: Reader, anonymousView: Node[]): void {
  const warning = page.querySelector<HTMLElement>('[data-download-warning]');
  if (!warning) return;
  // While the check runs the static (anonymous) view stays: most visitors are anonymous.
  if (reader === 'checking') return;
  warning.hidden = reader === 'verified';
  const view = reader === 'unverified' ? 'unverified' : 'anonymous';
  if ((warning.dataset.view ?? 'anonymous') === view) return;
  warning.dataset.view = view;
  warning.replaceChildren(...(view === 'unverified' ? unverifiedContent() : anonymousView));
}

function targetOf(container: HTMLElement): DownloadTarget | null {
  const id = Number(container.dataset.downloadId);
  if (!Number.isSafeInteger(id) || id <= 0 || !container.dataset.filename) return null;
  return { id, filename: container.dataset.filename, size: Number(container.dataset.size) || 0 };
}

function downloadControl(target: DownloadTarget, title: string): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'download-action';
  const error = downloadErrorElement();

  if (prefersNativeDownload(target.size)) {
    const link = document.createElement('a');
    link.className = 'button';
    link.href = fileUrl(target.id);
    link.setAttribute('download', target.filename);
    link.textContent = 'Download';
    link.setAttribute('aria-label', `Download ${title}`);
    const hint = document.createElement('p');
    hint.className = 'download-action__hint';
    hint.textContent = 'Large file: your browser downloads it directly and can resume it if the connection drops.';
    wrapper.append(link, hint, error);
    return wrapper;
  }

  const button = downloadButton({ label: `Download ${title}`, className: 'button', error, download: () => downloadRelease(target) });
  wrapper.append(button, error);
  return wrapper;
}

function renderDownloadButtons(page: HTMLElement, reader: Reader, admin: boolean): void {
  for (const container of page.querySelectorAll<HTMLElement>('.download-card [data-download-action]')) {
    const target = targetOf(container);
    // Admins' buttons come with the admin island.
    const wanted = reader === 'verified' && !admin && target !== null;
    if (!wanted) {
      container.replaceChildren();
      continue;
    }
    if (container.firstElementChild) continue;
    const title = container.closest('.download-card')?.querySelector('.download-card__title')?.textContent?.trim() ?? target.filename;
    container.append(downloadControl(target, title));
  }
}

let adminLoad: Promise<void> | undefined;
let unmountAdmin: (() => void) | undefined;

function renderAdmin(page: HTMLElement, admin: boolean): void {
  if (admin && !adminLoad) {
    adminLoad = import('../islands/DownloadsAdmin.tsx')
      .then(({ mountDownloadsAdmin }) => {
        unmountAdmin = mountDownloadsAdmin(page);
      })
      .catch((error: unknown) => {
        adminLoad = undefined;
        console.error('Could not load the downloads admin', error);
      });
  } else if (!admin && adminLoad) {
    void adminLoad.then(() => {
      unmountAdmin?.();
      unmountAdmin = undefined;
      adminLoad = undefined;
    });
  }
}

const page = document.querySelector<HTMLElement>('[data-downloads-page]');
if (page) {
  enableCopyButtons(page);
  const warning = page.querySelector<HTMLElement>('[data-download-warning]');
  if (warning) bindDialogButtons(warning);
  const anonymousView = warning ? [...warning.childNodes] : [];
  $user.subscribe((user) => {
    const reader = readerOf(user);
    const admin = isAdminUser(user);
    renderWarning(page, reader, anonymousView);
    renderDownloadButtons(page, reader, admin);
    renderAdmin(page, admin);
  });
}
