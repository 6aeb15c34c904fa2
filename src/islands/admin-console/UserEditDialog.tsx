// 'Edit User' on the admin screen: the profile fields of the dashboard's form (shared PROFILE_FIELDS), plus
// what only an admin may change: the e-mail address, the role and whether the address counts as verified.
// Unlike the original product, which ignored save failures (docs/product/messages.md#validation), the server's answer is shown: per
// field, and refusals such as 'You cannot remove your own admin role.' as the form's message.
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { PROFILE_FIELDS } from '../users/UserFormDialog.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { firstFieldErrors, generalMessage, type FieldErrors, type FormMessage } from '../ui/form-errors.ts';
import { useFocusFirstInvalid } from './use-focus-invalid.ts';
import { updateUser, type AdminUser, type UserEdit } from '../../lib/api/admin.ts';

const ROLES = ['user', 'admin'] as const;
const FIELDS = [...PROFILE_FIELDS.map((field) => field.name), 'email', 'role', 'email_verified_at'];

type TextFields = Omit<UserEdit, 'email_verified_at'>;

function formOf(user: AdminUser): Required<TextFields> {
  const form = { email: user.email, role: user.role } as Required<TextFields>;
  for (const field of PROFILE_FIELDS) form[field.name] = user[field.name] ?? '';
  return form;
}

interface UserEditFormProps {
  user: AdminUser;
  onSaved: (user: AdminUser, message: string) => void;
  onCancel: () => void;
}

function UserEditForm({ user, onSaved, onCancel }: UserEditFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const roleId = useId();
  const [form, setForm] = useState(() => formOf(user));
  const [verified, setVerified] = useState(Boolean(user.email_verified_at));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [busy, setBusy] = useState(false);
  useFocusFirstInvalid(formRef, errors);
  const set = (name: keyof TextFields) => (value: string) => setForm((current) => ({ ...current, [name]: value }));
  const roles = ROLES.includes(user.role as (typeof ROLES)[number]) ? ROLES : [...ROLES, user.role];
  const emailChanged = form.email.trim().toLowerCase() !== user.email.toLowerCase();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      const answer = await updateUser(user.id, { ...form, email_verified_at: emailChanged ? false : verified });
      onSaved(answer.user, answer.message);
    } catch (error) {
      const fieldErrors = firstFieldErrors(error, FIELDS);
      setErrors(fieldErrors);
      const text = generalMessage(error, fieldErrors);
      setMessage(text ? { text, tone: 'error' } : null);
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <div className="form-grid">
        {PROFILE_FIELDS.map((field, index) => (
          <div key={field.name} className={'full' in field ? 'field--full' : undefined}>
            <Field
              label={field.label}
              name={field.name}
              type={'type' in field ? field.type : 'text'}
              value={form[field.name]}
              onChange={set(field.name)}
              error={errors[field.name]}
              autoComplete="off"
              autoFocusOnOpen={index === 0}
            />
          </div>
        ))}
        <div className="field--full">
          <Field
            label="Email"
            name="email"
            type="email"
            value={form.email}
            onChange={set('email')}
            error={errors.email}
            autoComplete="off"
            hint={emailChanged ? 'A new address is unverified (whatever the box below says) until the user follows the link mailed to it.' : undefined}
          />
        </div>
        <div className={errors.role ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={roleId}>
            Role
          </label>
          <select id={roleId} name="role" className="field__control" value={form.role} onChange={(event) => set('role')(event.target.value)} aria-invalid={errors.role ? true : undefined}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
          {errors.role && <p className="field__error">{errors.role}</p>}
        </div>
        <div className="admin-edit__verified">
          <Checkbox label="Email verified" name="email_verified_at" checked={verified} onChange={setVerified} />
          {errors.email_verified_at && <p className="field__error">{errors.email_verified_at}</p>}
        </div>
      </div>
      <Message message={message} />
      <div className="form__actions">
        <SubmitButton label="Save" busyLabel={busy ? 'Saving…' : undefined} />
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
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
