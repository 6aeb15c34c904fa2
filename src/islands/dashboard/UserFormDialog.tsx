// The user data form modal (docs/product/accounts.md#dashboard Edit): the profile fields only. The e-mail, role, ban and license
// fields are not editable here (the server refuses changes to them with 403). The original product ignored save
// failures; the form shows the server's answer anyway, since a silent failure would look like success.
import { useRef, useState } from 'react';
import { updateProfile } from '../../lib/api/account.ts';
import type { CurrentUser } from '../../stores/session.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { serverErrorFor5xx } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { PROFILE_FIELD_NAMES, ProfileFields, profileOf, type Profile } from './ProfileFields.tsx';

interface UserFormProps {
  user: CurrentUser;
  onSaved: (user: CurrentUser) => void;
  onCancel: () => void;
}

function UserForm({ user, onSaved, onCancel }: UserFormProps) {
  const [profile, setProfile] = useState<Profile>(() => profileOf(user));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: PROFILE_FIELD_NAMES, statusMessage: serverErrorFor5xx });

  const save = form.onSubmit(async () => {
    const answer = await updateProfile(user.id, profile);
    onSaved(answer.user);
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={save} aria-busy={form.busy}>
      <div className="form-grid">
        <ProfileFields profile={profile} onChange={(name, value) => setProfile((current) => ({ ...current, [name]: value }))} errors={form.errors} autoFill />
      </div>
      <Message message={form.message} />
      <FormActions label="Save" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

interface UserFormDialogProps extends UserFormProps {
  open: boolean;
}

export function UserFormDialog({ open, user, onSaved, onCancel }: UserFormDialogProps) {
  return (
    <Dialog title="Edit your details" open={open} onClose={onCancel} size="wide">
      {/* Mounted per opening, so it starts from the user's current data. */}
      {open && <UserForm user={user} onSaved={onSaved} onCancel={onCancel} />}
    </Dialog>
  );
}
