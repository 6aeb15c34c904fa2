// 'Edit User' on the admin screen: the profile fields of the dashboard's form (users/ProfileFields.tsx),
// plus what only an admin may change: the e-mail address, the role and whether the address counts as
// verified. Unlike the original product, which ignored save failures, the server's answer is shown
// (docs/admin-api.md): per field, and refusals such as 'You cannot remove your own admin role.' as the
// form's message.
import { useRef, useState } from 'react';
import { PROFILE_FIELD_NAMES, ProfileFields, profileOf, type Profile } from '../dashboard/ProfileFields.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field, SelectField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import type { FieldErrors } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { updateUser, type AdminUser } from '../../lib/api/admin.ts';

const ROLES = ['user', 'admin'] as const;
const FIELDS = [...PROFILE_FIELD_NAMES, 'email', 'role', 'email_verified_at'];
const NEW_ADDRESS_HINT = 'A new address is unverified (whatever the box below says) until the user follows the link mailed to it.';

interface Account {
  email: string;
  role: string;
  verified: boolean;
}

interface AccountFieldsProps {
  user: AdminUser;
  account: Account;
  onChange: (change: Partial<Account>) => void;
  errors: FieldErrors;
}

/** What only an admin edits: the address, the role and whether the address counts as verified. */
function AccountFields({ user, account, onChange, errors }: AccountFieldsProps) {
  const roles = ROLES.includes(user.role as (typeof ROLES)[number]) ? ROLES : [...ROLES, user.role];
  const emailChanged = account.email.trim().toLowerCase() !== user.email.toLowerCase();
  return (
    <>
      <div className="field--full">
        <Field
          label="Email"
          name="email"
          type="email"
          value={account.email}
          onChange={(email) => onChange({ email })}
          error={errors.email}
          autoComplete="off"
          hint={emailChanged ? NEW_ADDRESS_HINT : undefined}
        />
      </div>
      <SelectField
        label="Role"
        name="role"
        value={account.role}
        onChange={(role) => onChange({ role })}
        options={roles.map((role) => ({ value: role, label: role }))}
        error={errors.role}
      />
      <div className="admin-edit__verified">
        <Checkbox label="Email verified" name="email_verified_at" checked={account.verified} onChange={(verified) => onChange({ verified })} />
        {errors.email_verified_at && <p className="field__error">{errors.email_verified_at}</p>}
      </div>
    </>
  );
}

interface UserEditFormProps {
  user: AdminUser;
  onSaved: (user: AdminUser, message: string) => void;
  onCancel: () => void;
}

function UserEditForm({ user, onSaved, onCancel }: UserEditFormProps) {
  const [profile, setProfile] = useState<Profile>(() => profileOf(user));
  const [account, setAccount] = useState<Account>({ email: user.email, role: user.role, verified: Boolean(user.email_verified_at) });
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS });

  const save = form.onSubmit(async () => {
    const emailChanged = account.email.trim().toLowerCase() !== user.email.toLowerCase();
    const answer = await updateUser(user.id, {
      ...profile,
      email: account.email,
      role: account.role,
      email_verified_at: emailChanged ? false : account.verified,
    });
    onSaved(answer.user, answer.message);
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={save} aria-busy={form.busy}>
      <div className="form-grid">
        <ProfileFields
          profile={profile}
          onChange={(name, value) => setProfile((current) => ({ ...current, [name]: value }))}
          errors={form.errors}
          autoFill={false}
        />
        <AccountFields user={user} account={account} onChange={(change) => setAccount((current) => ({ ...current, ...change }))} errors={form.errors} />
      </div>
      <Message message={form.message} />
      <FormActions label="Save" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

interface UserEditDialogProps {
  user: AdminUser | null;
  onSaved: (user: AdminUser, message: string) => void;
  onCancel: () => void;
}

export function UserEditDialog({ user, onSaved, onCancel }: UserEditDialogProps) {
  return (
    <Dialog title={user ? `Edit User: ${user.name}` : 'Edit User'} open={user !== null} onClose={onCancel} size="wide">
      {user && <UserEditForm key={user.id} user={user} onSaved={onSaved} onCancel={onCancel} />}
    </Dialog>
  );
}
