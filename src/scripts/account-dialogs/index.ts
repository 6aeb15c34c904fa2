// The account UI every page may need, without React (docs/decisions/0055-account-dialogs-without-react.md):
// the login/registration modal, the 'Verification sent' notice and the full-screen loading modal, all in
// one container appended to <body> and driven by their stores ($accountDialog, $loading), which plain
// scripts and islands alike set. Mounted on demand by src/scripts/account-root.ts.
import { $accountDialog, closeAccountDialog, type AccountDialogState } from '../../stores/account-dialog.ts';
import { showAuthForm, type AuthState } from './auth-form.ts';
import { mountLoadingModal } from './loading-modal.ts';
import { createModal } from './modal.ts';
import { showVerificationSent } from './verification-sent.ts';

function isAuthState(state: AccountDialogState | null): state is AuthState {
  return state?.mode === 'login' || state?.mode === 'register';
}

export function mountAccountDialogs(container: HTMLElement): void {
  const auth = createModal(container, closeAccountDialog);
  const verification = createModal(container, closeAccountDialog);
  mountLoadingModal(container);

  let endAuthForm: (() => void) | undefined;
  // Every change of the store is a new opening (showAccountDialog numbers each) or a close: an open form ends
  // and the next starts from empty fields.
  $accountDialog.subscribe((state) => {
    endAuthForm?.();
    endAuthForm = undefined;
    if (isAuthState(state)) {
      endAuthForm = showAuthForm(state, { body: auth.body, setTitle: auth.setTitle, focus: auth.show });
      auth.show();
    } else {
      auth.hide();
    }
    if (state?.mode === 'verification-sent') showVerificationSent(verification);
    else verification.hide();
  });
}
