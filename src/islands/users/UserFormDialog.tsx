// The user data form modal (docs/product/accounts.md#dashboard Edit): the profile fields only. The e-mail, role, ban and license
// fields are not editable here (the server refuses changes to them with 403). The original product ignored save
// failures; the form shows the server's answer anyway, since a silent failure would look like success.
import { useRef, useState, type SubmitEvent } from 'react';
import { updateProfile } from '../../lib/api/account.ts';
import type { CurrentUser } from '../../stores/session.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { firstFieldErrors, focusFirstInvalid, generalMessage, SERVER_ERROR, type FieldErrors, type FormMessage } from '../ui/form-errors.ts';
import { ApiError } from '../../lib/api/client.ts';

export const PROFILE_FIELDS = [
  { name: 'name', label: 'Name', autoComplete: 'given-name' },
  { name: 'surname', label: 'Surname', autoComplete: 'family-name' },
  { name: 'companyName', label: 'Company Name', autoComplete: 'organization' },
  { name: 'address', label: 'Address', autoComplete: 'street-address', full: true },
  { name: 'postcode', label: 'Post Code', autoComplete: 'postal-code' },
  { name: 'county', label: 'County', autoComplete: 'address-level1' },
  { name: 'country', label: 'Country', autoComplete: 'country-name' },
  { name: 'phone', label: 'Phone', autoComplete: 'tel', type: 'tel' },
  { name: 'vat', label: 'VAT No', autoComplete: 'off' },
] as const;

type ProfileField = (typeof PROFILE_FIELDS)[number]['name'];
type Profile = Record<ProfileField, string>;

function profileOf(user: CurrentUser): Profile {
  const profile = {} as Profile;
  for (const field of PROFILE_FIELDS) profile[field.name] = user[field.name] ?? '';
  return profile;
}

interface UserFormProps {
  user: CurrentUser;
  onSaved: (user: CurrentUser) => void;
  onCancel: () => void;
}

function UserForm({ user, onSaved, onCancel }: UserFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [profile, setProfile] = useState<Profile>(() => profileOf(user));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      const answer = await updateProfile(user.id, profile);
      onSaved(answer.user);
    } catch (error) {
      console.error('Saving the profile failed', error);
      if (error instanceof ApiError && error.status >= 500) {
        setMessage({ text: SERVER_ERROR, tone: 'error' });
      } else {
        const fieldErrors = firstFieldErrors(error, PROFILE_FIELDS.map((field) => field.name));
        setErrors(fieldErrors);
        const text = generalMessage(error, fieldErrors);
        setMessage(text ? { text, tone: 'error' } : null);
        focusFirstInvalid(formRef.current);
      }
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
              value={profile[field.name]}
              onChange={(value) => setProfile((current) => ({ ...current, [field.name]: value }))}
              error={errors[field.name]}
              autoComplete={field.autoComplete}
              autoFocusOnOpen={index === 0}
            />
          </div>
        ))}
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
