// 'Verification sent' (docs/product/routes.md#navigation-bar): shown after the unverified banner asked for a new link.
import { closeAccountDialog } from '../../stores/account-dialog.ts';
import { $user } from '../../stores/session.ts';
import { actionButton, element } from './form-view.ts';
import type { Modal } from './modal.ts';

export function showVerificationSent(modal: Modal): void {
  modal.setTitle('Verification sent');
  const ok = actionButton('OK', 'button', closeAccountDialog);
  ok.dataset.autofocus = '';
  const actions = element('div', 'form__actions');
  actions.append(ok);
  modal.body.replaceChildren(
    element('p', 'dialog__email', $user.get()?.email ?? ''),
    element('p', undefined, 'Please check your email and follow instruction to finish registration.'),
    actions,
  );
  modal.show();
}
