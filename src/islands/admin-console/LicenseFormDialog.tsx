// The license form (docs/product/admin.md#admin-screen) in add mode or update mode. The type decides the other fields: a
// perpetual license never expires, so the expiry-days field is hidden; a trial is always active from the
// grant (docs/decisions/0011), so the Active checkbox is hidden. Hidden fields are not sent, and the server
// applies the same rules whatever arrives. Errors come back per field (docs/product/messages.md#validation).
import { useRef, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field, SelectField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import type { FieldErrors } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { storeLicense, updateLicense, type AdminUser, type License, type LicenseAnswer, type LicenseInput, type LicenseType } from '../../lib/api/admin.ts';

export type LicenseFormMode = { kind: 'add' } | { kind: 'update'; license: License };

const FIELDS = ['license_type_id', 'expire', 'active'] as const;
/** A trial needs at least a day (the server refuses 0); a month is the usual free trial. */
const TRIAL_DAYS = '30';

function typeName(types: readonly LicenseType[], id: string): string {
  return types.find((type) => String(type.id) === id)?.name.toLowerCase() ?? '';
}

/** The expiry days (hidden for a perpetual license) and Active (hidden for a trial, active at once). */
interface TermFieldsProps {
  /** The chosen type's name in lower case ('trial', 'perpetual', …). */
  kind: string;
  expire: string;
  onExpire: (value: string) => void;
  active: boolean;
  onActive: (value: boolean) => void;
  errors: FieldErrors;
}

function TermFields({ kind, expire, onExpire, active, onActive, errors }: TermFieldsProps) {
  const isTrial = kind === 'trial';
  return (
    <>
      {kind === 'perpetual' ? (
        <p className="field__hint">A perpetual license never expires.</p>
      ) : (
        <Field
          label="Expires after (days)"
          name="expire"
          value={expire}
          onChange={onExpire}
          error={errors.expire}
          inputMode="numeric"
          hint={isTrial ? 'Counted from the grant; a trial is active at once.' : 'Counted from activation.'}
        />
      )}
      {!isTrial && (
        <>
          <Checkbox label="Active" name="active" checked={active} onChange={onActive} />
          {errors.active && <p className="field__error">{errors.active}</p>}
        </>
      )}
    </>
  );
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
  const [licenseType, setLicenseType] = useState(existing ? String(existing.license_type_id) : '');
  const [expire, setExpire] = useState(existing ? String(existing.expire) : '0');
  const [active, setActive] = useState(existing ? Boolean(existing.active) : false);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS });
  const kind = typeName(types, licenseType);

  const chooseType = (value: string) => {
    setLicenseType(value);
    if (typeName(types, value) === 'trial' && (expire.trim() === '' || expire.trim() === '0')) setExpire(TRIAL_DAYS);
  };

  const save = form.onSubmit(async () => {
    const data: LicenseInput = { license_type_id: licenseType === '' ? '' : Number(licenseType), user_id: user.id };
    if (kind !== 'perpetual') data.expire = expire.trim();
    if (kind !== 'trial') data.active = active ? 1 : 0;
    onSaved(existing ? await updateLicense(existing.id, data) : await storeLicense(data));
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={save} aria-busy={form.busy}>
      <p className="admin-form-lead">
        For <strong>{user.name}</strong> ({user.email})
      </p>
      <SelectField
        label="License type"
        name="license_type_id"
        value={licenseType}
        onChange={chooseType}
        options={types.map((type) => ({ value: type.id, label: type.name }))}
        emptyOption="Choose a type…"
        error={form.errors.license_type_id}
        autoFocusOnOpen
      />
      <TermFields kind={kind} expire={expire} onExpire={setExpire} active={active} onActive={setActive} errors={form.errors} />
      <Message message={form.message} />
      <FormActions label={existing ? 'Update License' : 'Add License'} busyLabel={form.busyLabel} onCancel={onCancel} />
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
