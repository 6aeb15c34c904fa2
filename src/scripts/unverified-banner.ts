// The banner for a signed-in user whose e-mail is not verified (docs/product/routes.md#navigation-bar), in plain DOM: it shows on
// every page, including static ones that have no React. Re-sending opens the 'Verification sent' modal.
import { api, ApiError } from '../lib/api/request.ts';
import { loadCurrentUser } from '../lib/api/session.ts';
import type { CurrentUser } from '../stores/session.ts';
import { openAccountDialog } from './account-root.ts';

export const UNVERIFIED_TEXT = 'Email not verified. Follow the link that was sent in email during registration process.';
const GENERIC_FAILURE = 'There was an error. Please try again later or contact admin.';

let banner: HTMLElement | undefined;

function buildBanner(root: Document): HTMLElement {
  const element = root.createElement('div');
  element.className = 'verify-banner';
  element.setAttribute('role', 'region');
  element.setAttribute('aria-label', 'E-mail not verified');
  const text = root.createElement('p');
  text.className = 'verify-banner__text';
  text.textContent = `${UNVERIFIED_TEXT} `;
  const resend = root.createElement('button');
  resend.type = 'button';
  resend.className = 'link-button';
  resend.textContent = 'Send a new confirmation e-mail';
  text.append(resend);
  // Polite live region: a throttle or mail failure is announced without moving focus.
  const status = root.createElement('p');
  status.className = 'verify-banner__status';
  status.setAttribute('role', 'status');
  element.append(text, status);

  resend.addEventListener('click', () => {
    resend.disabled = true;
    status.textContent = '';
    void api
      .post('/api/auth/email/resend', undefined, { loading: false })
      .then(async () => {
        // "Already verified" is a success too: reload the user, and only a still unverified one needs
        // to be told to check the mailbox (the banner disappears for the other).
        await loadCurrentUser();
        await openAccountDialog('verification-sent');
      })
      .catch((error: unknown) => {
        // docs/product/messages.md#error-catalogue: the banner flow only logs failures. A throttle answer is shown too: it tells the
        // user when trying again will work, which beats a button that silently does nothing.
        console.error('Resending the verification e-mail failed', error);
        if (error instanceof ApiError && error.status === 429) status.textContent = error.message;
        else if (!(error instanceof ApiError && error.status === 401)) status.textContent = GENERIC_FAILURE;
      })
      .finally(() => {
        resend.disabled = false;
      });
  });
  return element;
}

export function renderUnverifiedBanner(root: Document, user: CurrentUser | null | undefined): void {
  const show = Boolean(user && !user.email_verified_at);
  if (!show) {
    banner?.remove();
    return;
  }
  banner ??= buildBanner(root);
  if (!banner.isConnected) {
    const header = root.querySelector('.site-header');
    if (header) header.after(banner);
    else root.body.prepend(banner);
  }
}
