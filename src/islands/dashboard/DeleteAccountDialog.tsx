// "Delete my account" (docs/product/accounts.md#your-data): the site's dialog names what is removed and asks
// for the password again (and a two-factor code when the user has it on). On success the client forgets
// the user and goes home, where a one-time notice says the account is gone.
import { useRef, useState } from 'react';
import { deleteAccount } from '../../lib/api/account.ts';
import { queueSiteNotice } from '../../scripts/site-notice.ts';
import { setSession, type CurrentUser, type LicenseView } from '../../stores/session.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { serverErrorFor5xx } from '../ui/form-errors.ts';
import { STAY_BUSY, useFormSubmit } from '../ui/use-form-submit.ts';
import { IdentityCodeField, IdentityPasswordField } from './IdentityFields.tsx';

export const ACCOUNT_DELETED_NOTICE = 'Your account has been deleted. Thank you for having been with us.';

const FIELDS = ['password', 'code'] as const;

/** Whether the user must give a two-factor code: two-factor sign-in is on (docs/product/accounts.md#your-data). */
export function hasTwoFactor(user: CurrentUser): boolean {
  return user.two_factor_enabled_at !== null && user.two_factor_enabled_at !== undefined;
}

function licensesText(count: number): string {
  if (count === 0) return 'your license request, if any';
  return count === 1
    ? 'your license and its key (the software stops accepting it) with its machines'
    : `your ${count} licenses and their keys (the software stops accepting them) with their machines`;
}

interface DeleteAccountFormProps {
  user: CurrentUser;
  licenses: readonly LicenseView[];
  onCancel: () => void;
}

function DeleteAccountForm({ user, licenses, onCancel }: DeleteAccountFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const twoFactor = hasTwoFactor(user);
  const form = useFormSubmit(formRef, { fields: FIELDS, busyLabel: 'Deleting…', statusMessage: serverErrorFor5xx });

  const submit = form.onSubmit(async () => {
    await deleteAccount(twoFactor ? { password, code } : { password });
    // The server ended every session and cleared the cookie; the client forgets the user too.
    setSession(null);
    queueSiteNotice(ACCOUNT_DELETED_NOTICE);
    window.location.assign('/');
    // The page is leaving: the button keeps saying so rather than coming back.
    return STAY_BUSY;
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
      <p>
        This deletes the account of <strong>{user.email}</strong> at once. It cannot be undone. Removed:
      </p>
      <ul className="delete-account__list">
        <li>your details and your sign-in: you are signed out on every device;</li>
        <li>{licensesText(licenses.length)};</li>
        <li>the record of the mailings you received and the messages you sent through the contact form.</li>
      </ul>
      <p>Kept, without your name: the count of downloads of each release. Download your data first if you want a copy.</p>
      <IdentityPasswordField value={password} onChange={setPassword} error={form.errors.password} autoFocusOnOpen />
      {twoFactor && <IdentityCodeField value={code} onChange={setCode} error={form.errors.code} />}
      <Message message={form.message} />
      <FormActions label="Delete my account" busyLabel={form.busyLabel} onCancel={onCancel} danger />
    </form>
  );
}

interface DeleteAccountDialogProps extends DeleteAccountFormProps {
  open: boolean;
}

export function DeleteAccountDialog({ open, onCancel, ...props }: DeleteAccountDialogProps) {
  return (
    <Dialog title="Delete your account" open={open} onClose={onCancel}>
      {/* Mounted per opening, so the password never outlives the dialog. */}
      {open && <DeleteAccountForm {...props} onCancel={onCancel} />}
    </Dialog>
  );
}
