// The React root the account UI needs on any page, mounted on demand by src/scripts/account-root.ts:
// the login/registration modal, the 'Verification sent' notice and the loading modal.
import { useStore } from '@nanostores/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { $accountDialog } from '../stores/account-dialog.ts';
import { AuthDialog } from './AuthDialog.tsx';
import { LoadingModal } from './LoadingModal.tsx';
import { VerificationSentDialog } from './VerificationSentDialog.tsx';

export function AccountRoot() {
  const dialog = useStore($accountDialog);
  return (
    <>
      <AuthDialog state={dialog} />
      <VerificationSentDialog open={dialog?.mode === 'verification-sent'} />
      <LoadingModal />
    </>
  );
}

export function mountAccountRoot(container: HTMLElement): void {
  createRoot(container).render(
    <StrictMode>
      <AccountRoot />
    </StrictMode>,
  );
}
