// The license form (docs/product/admin.md#admin-screen) in add mode or update mode. The type decides the other fields: a
// perpetual license never expires, so the expiry-days field is hidden; a trial is always active from the
// grant (docs/decisions/0011), so the Active checkbox is hidden. Hidden fields are not sent, and the server
// applies the same rules whatever arrives. Errors come back per field (docs/product/messages.md#validation).
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { firstFieldErrors, generalMessage, type FieldErrors, type FormMessage } from '../ui/form-errors.ts';
import { useFocusFirstInvalid } from './use-focus-invalid.ts';
import { storeLicense, updateLicense, type AdminUser, type License, type LicenseAnswer, type LicenseInput, type LicenseType } from '../../lib/api/admin.ts';

export type LicenseFormMode = { kind: 'add' } | { kind: 'update'; license: License };

const FIELDS = ['license_type_id', 'expire', 'active'] as const;
/** A trial needs at least a day (the server refuses 0); a month is the usual free trial. */
const TRIAL_DAYS = '30';

function typeName(types: readonly LicenseType[], id: string): string {
  return types.find((type) => String(type.id) === id)?.name.toLowerCase() ?? '';
}

interface LicenseFormProps {
  mode: LicenseFormMode;
  user: AdminUser;
  types: readonly LicenseType[];
  onSaved: (answer: LicenseAnswer) => void;
  onCancel: () => void;
}

function LicenseForm({ mode, user, types, onSaved, onCancel }: LicenseFormProps) {
  const existing = mode.kind === 'update' ? mode.license : null;
  const formRef = useRef<HTMLFormElement>(null);
  const typeId = useId();
  const [licenseType, setLicenseType] = useState(existing ? String(existing.license_type_id) : '');
  const [expire, setExpire] = useState(existing ? String(existing.expire) : '0');
  const [active, setActive] = useState(existing ? Boolean(existing.active) : false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [busy, setBusy] = useState(false);
  useFocusFirstInvalid(formRef, errors);
  const name = typeName(types, licenseType);
  const isTrial = name === 'trial';
  const isPerpetual = name === 'perpetual';

  const chooseType = (value: string) => {
    setLicenseType(value);
    if (typeName(types, value) === 'trial' && (expire.trim() === '' || expire.trim() === '0')) setExpire(TRIAL_DAYS);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({});
    setMessage(null);
    const data: LicenseInput = { license_type_id: licenseType === '' ? '' : Number(licenseType), user_id: user.id };
    if (!isPerpetual) data.expire = expire.trim();
    if (!isTrial) data.active = active ? 1 : 0;
    try {
      onSaved(existing ? await updateLicense(existing.id, data) : await storeLicense(data));
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
      <p className="admin-form-lead">
        For <strong>{user.name}</strong> ({user.email})
      </p>
      <div className={errors.license_type_id ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor={typeId}>
          License type
        </label>
        <select
          id={typeId}
          name="license_type_id"
          className="field__control"
          value={licenseType}
          onChange={(event) => chooseType(event.target.value)}
          aria-invalid={errors.license_type_id ? true : undefined}
          aria-describedby={errors.license_type_id ? `${typeId}-error` : undefined}
          data-autofocus=""
        >
          <option value="">Choose a type…</option>
          {types.map((type) => (
            <option key={type.id} value={type.id}>
              {type.name}
            </option>
          ))}
        </select>
        {errors.license_type_id && (
          <p className="field__error" id={`${typeId}-error`}>
            {errors.license_type_id}
          </p>
        )}
      </div>
      {!isPerpetual && (
        <Field
          label="Expires after (days)"
          name="expire"
          value={expire}
          onChange={setExpire}
          error={errors.expire}
          inputMode="numeric"
          hint={isTrial ? 'Counted from the grant; a trial is active at once.' : 'Counted from activation.'}
        />
      )}
      {isPerpetual && <p className="field__hint">A perpetual license never expires.</p>}
      {!isTrial && (
        <>
          <Checkbox label="Active" name="active" checked={active} onChange={setActive} />
          {errors.active && <p className="field__error">{errors.active}</p>}
        </>
      )}
      <Message message={message} />
      <div className="form__actions">
        <SubmitButton label={existing ? 'Update License' : 'Add License'} busyLabel={busy ? 'Saving…' : undefined} />
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface LicenseFormDialogProps extends Omit<LicenseFormProps, 'mode'> {
  mode: LicenseFormMode | null;
}

export function LicenseFormDialog({ mode, user, types, onSaved, onCancel }: LicenseFormDialogProps) {
  const title = mode?.kind === 'update' ? `Update License #${mode.license.id}` : 'Add License';
  return (
    <Dialog title={title} open={mode !== null} onClose={onCancel}>
      {/* Mounted per opening: each mode starts from its license's values (or the defaults). */}
      {mode && <LicenseForm mode={mode} user={user} types={types} onSaved={onSaved} onCancel={onCancel} />}
    </Dialog>
  );
}
