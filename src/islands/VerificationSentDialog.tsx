// 'Verification sent' (docs/product/routes.md#navigation-bar): shown after the unverified banner asked for a new link.
import { useStore } from '@nanostores/react';
import { closeAccountDialog } from '../stores/account-dialog.ts';
import { $user } from '../stores/session.ts';
import { Dialog } from './ui/Dialog.tsx';

export function VerificationSentDialog({ open }: { open: boolean }) {
  const user = useStore($user);
  return (
    <Dialog title="Verification sent" open={open} onClose={closeAccountDialog}>
      <p className="dialog__email">{user?.email}</p>
      <p>Please check your email and follow instruction to finish registration.</p>
      <div className="form__actions">
        <button type="button" className="button" onClick={closeAccountDialog} data-autofocus>
          OK
        </button>
      </div>
    </Dialog>
  );
}
