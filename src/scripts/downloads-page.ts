// The downloads page's behaviour (docs/product/downloads.md#downloads-page, issue 6 item 4) without React for readers: the static
// page is what an anonymous visitor needs, so this only adapts it to whoever is signed in, using the
// user the nav bar's account script already loaded (no extra API call):
// - the warning says where the visitor stands (issue 14): anonymous visitors keep the static text with its
//   Login and Register buttons, unverified users read 'Only verified user can use download!' with the
//   resend link, verified ones see none;
// - verified users get a Download button (or, for very large files, a native link) on each card, one per
//   file where a release has several (issue 25). A gated release (an entitlement, or the beta channel) and
//   the files of previous releases get theirs only when a license of the user gives that release: the page
//   then asks GET /api/user/software once, and only when it has such a release;
// - admins get the admin island (its own chunk, loaded only for them), which takes over the list.
// The copy buttons of the SHA-256 values work for everyone.
import { $user, isAdminUser, type CurrentUser } from '../stores/session.ts';
import { bindAccountDialogButton } from './account-root.ts';
import { enableCopyButtons } from './copy-buttons.ts';
import { downloadRelease, fileUrl, prefersNativeDownload, type DownloadTarget } from './release-download.ts';
import { downloadableReleaseIds, fetchOwnSoftware } from '../lib/api/downloads.ts';
import { fileDownloadLabel, type PlatformFile } from '../lib/release-markup.ts';
import { downloadButton, downloadErrorElement } from './download-button.ts';
import { verificationResendButton } from './verification-resend.ts';

export const DOWNLOAD_WARNINGS = {
  anonymous: 'You must login to download software!',
  unverified: 'Only verified user can use download!',
  verify: 'Verify your e-mail: follow the link we sent you, or ask for a new one.',
  /** A gated card none of the reader's licenses gives (issue 25). */
  gated: 'None of your licenses includes this release. "My software" on your dashboard shows the releases yours include.',
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
  return { id, filename: container.dataset.filename, size: Number(container.dataset.size) || 0, fileUrl: container.dataset.fileUrl || undefined };
}

/** The platform a slot of a release with several files is for, to name its button. */
function platformOf(container: HTMLElement): PlatformFile | null {
  const { platform, arch } = container.dataset;
  return platform && arch ? ({ platform, arch } as PlatformFile) : null;
}

function downloadControl(target: DownloadTarget, label: string): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'download-action';
  const error = downloadErrorElement();

  if (prefersNativeDownload(target.size)) {
    const link = document.createElement('a');
    link.className = 'button';
    link.href = fileUrl(target.id, target.fileUrl);
    link.setAttribute('download', target.filename);
    link.textContent = 'Download';
    link.setAttribute('aria-label', label);
    const hint = document.createElement('p');
    hint.className = 'download-action__hint';
    hint.textContent = 'Large file: your browser downloads it directly and can resume it if the connection drops.';
    wrapper.append(link, hint, error);
    return wrapper;
  }

  const button = downloadButton({ label, className: 'button', error, download: () => downloadRelease(target) });
  wrapper.append(button, error);
  return wrapper;
}

/**
 * The releases the reader's licenses give (gated ones, previous releases): asked once per signed-in user and
 * only when the page has such a release; a failure gives none (the static page stays as readers see it).
 */
let allowed: { userId: number; ids: Promise<Set<number>> } | undefined;
function allowedReleases(userId: number): Promise<Set<number>> {
  if (allowed?.userId !== userId) {
    const ids = fetchOwnSoftware().then(
      (answer) => downloadableReleaseIds(answer.licenses),
      (error: unknown) => {
        console.error('Could not load the releases your licenses include', error);
        return new Set<number>();
      },
    );
    allowed = { userId, ids };
  }
  return allowed.ids;
}

function fillSlot(container: HTMLElement, wanted: boolean): void {
  const target = targetOf(container);
  if (!wanted || target === null) {
    container.replaceChildren();
    return;
  }
  if (container.firstElementChild) return;
  const release = container.closest('.download-card, tr');
  const title = release?.querySelector('.download-card__title, th[scope="row"]')?.textContent?.trim() ?? target.filename;
  const platform = platformOf(container);
  container.append(downloadControl(target, platform ? fileDownloadLabel(title, platform) : `Download ${title}`));
}

/** Previous releases show their files only to whoever may download them; a gated card says why it has no button. */
function showReleaseParts(page: HTMLElement, may: (releaseId: number) => boolean, reader: Reader): void {
  for (const files of page.querySelectorAll<HTMLElement>('.previous-releases [data-release-files]')) {
    const id = Number(files.closest<HTMLElement>('[data-download-id]')?.dataset.downloadId);
    files.hidden = !may(id);
  }
  for (const note of page.querySelectorAll<HTMLElement>('.download-card [data-gate-note]')) {
    const id = Number(note.closest<HTMLElement>('[data-download-id]')?.dataset.downloadId);
    note.hidden = reader !== 'verified' || may(id);
    note.textContent = note.hidden ? '' : DOWNLOAD_WARNINGS.gated;
  }
}

async function renderDownloadButtons(page: HTMLElement, user: CurrentUser | null | undefined, reader: Reader, admin: boolean): Promise<void> {
  const slots = [...page.querySelectorAll<HTMLElement>('.download-card [data-download-action], .previous-releases [data-download-action]')];
  // Admins' buttons come with the admin island; only verified users download.
  const signedInReader = reader === 'verified' && !admin && user ? user : null;
  const needsLicenses = signedInReader !== null && slots.some((slot) => slot.dataset.gated !== undefined);
  const ids = needsLicenses ? await allowedReleases(signedInReader.id) : new Set<number>();
  // The user may have changed while the licenses were asked for: the newer call draws.
  if ($user.get() !== user) return;
  const may = (releaseId: number) => signedInReader !== null && ids.has(releaseId);
  for (const slot of slots) {
    const gated = slot.dataset.gated !== undefined;
    fillSlot(slot, signedInReader !== null && (!gated || may(Number(slot.dataset.downloadId))));
  }
  showReleaseParts(page, may, admin ? 'checking' : reader);
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
    void renderDownloadButtons(page, user, reader, admin);
    renderAdmin(page, admin);
  });
}
