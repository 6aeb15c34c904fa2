// The "Send a new confirmation e-mail" link of the plain-script screens (the unverified banner, the
// downloads page's warning), in one place: it asks for a new link, opens 'Verification sent' only when a
// mail went out, and otherwise shows the server's own words (issue 14: "already verified" used to open
// 'Verification sent' although nothing was sent). Failures follow docs/product/messages.md#error-catalogue:
// a throttle answer or the generic error, nothing on 401.
import { resendVerificationMail } from '../lib/api/account.ts';
import { ApiError } from '../lib/api/request.ts';
import { loadCurrentUser } from '../lib/api/session.ts';
import { openAccountDialog } from './account-root.ts';

const GENERIC_FAILURE = 'There was an error. Please try again later or contact admin.';

export const RESEND_LABEL = 'Send a new confirmation e-mail';

export interface ResendOptions {
  /** Where a message is written (a polite live region). */
  status: HTMLElement;
  /** Called with the server's message when nothing was sent because the address is verified already. */
  onAlreadyVerified?: (message: string) => void;
}

export function verificationResendButton(root: Document, { status, onAlreadyVerified }: ResendOptions): HTMLButtonElement {
  const resend = root.createElement('button');
  resend.type = 'button';
  resend.className = 'link-button';
  resend.textContent = RESEND_LABEL;
  resend.addEventListener('click', () => {
    resend.disabled = true;
    status.textContent = '';
    void resendVerificationMail({ loading: false })
      .then(async (answer) => {
        if (!answer.sent) {
          status.textContent = answer.message;
          onAlreadyVerified?.(answer.message);
          // The user is verified after all: reload them so the page offers what verified users get.
          await loadCurrentUser();
          return;
        }
        await openAccountDialog('verification-sent');
      })
      .catch((error: unknown) => {
        console.error('Resending the verification e-mail failed', error);
        if (error instanceof ApiError && error.status === 429) status.textContent = error.message;
        else if (!(error instanceof ApiError && error.status === 401)) status.textContent = GENERIC_FAILURE;
      })
      .finally(() => {
        resend.disabled = false;
      });
  });
  return resend;
}
