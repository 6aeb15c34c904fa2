// The banner for a signed-in user whose e-mail is not verified (docs/product/routes.md#unverified-banner), in plain DOM: it
// shows on every page, including static ones that have no React. Re-sending opens the 'Verification sent'
// modal when a mail went out; when the address turns out to be verified already the banner stays just long
// enough to say so in the server's words (src/scripts/verification-resend.ts).
import type { CurrentUser } from '../stores/session.ts';
import { verificationResendButton } from './verification-resend.ts';

export const UNVERIFIED_TEXT = 'Email not verified. Follow the link that was sent in email during registration process.';

let banner: HTMLElement | undefined;
/** Set once the server said the address is verified: the banner then only carries that message. */
let resolved = false;

function buildBanner(root: Document): HTMLElement {
  const element = root.createElement('div');
  element.className = 'verify-banner';
  element.setAttribute('role', 'region');
  element.setAttribute('aria-label', 'E-mail not verified');
  const text = root.createElement('p');
  text.className = 'verify-banner__text';
  text.textContent = `${UNVERIFIED_TEXT} `;
  // Polite live region: a throttle or mail failure, or "already verified", is announced without moving focus.
  const status = root.createElement('p');
  status.className = 'verify-banner__status';
  status.setAttribute('role', 'status');
  const onAlreadyVerified = () => {
    resolved = true;
    text.remove();
  };
  text.append(verificationResendButton(root, { status, onAlreadyVerified }));
  element.append(text, status);
  return element;
}

export function renderUnverifiedBanner(root: Document, user: CurrentUser | null | undefined): void {
  const show = Boolean(user && !user.email_verified_at);
  if (!show) {
    // A user who just learnt from the banner that they are verified keeps reading that message.
    if (!(resolved && user)) banner?.remove();
    return;
  }
  banner ??= buildBanner(root);
  if (!banner.isConnected) {
    const header = root.querySelector('.site-header');
    if (header) header.after(banner);
    else root.body.prepend(banner);
  }
}
