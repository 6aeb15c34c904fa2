// The license form (docs/product/admin.md#admin-screen) in add mode or update mode. The type decides the other fields: a
// perpetual license never expires, so the expiry-days field is hidden; a trial is always active from the
// grant (docs/decisions/0011), so the Active checkbox is hidden. Hidden fields are not sent, and the server
// applies the same rules whatever arrives. Errors come back per field (docs/product/messages.md#validation).
// Issue 12, item 7: the machine limit (empty on a new license: the licensing setting for its type), the
// suspension, and extending = raising the days of an active license, whose new expiry the hint shows.
import { useRef, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field, SelectField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import type { FieldErrors } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { expiryHint } from './dates.ts';
import { storeLicense, updateLicense, type AdminUser, type License, type LicenseAnswer, type LicenseInput, type LicenseType } from '../../lib/api/admin.ts';

export type LicenseFormMode = { kind: 'add' } | { kind: 'update'; license: License };

const FIELDS = ['license_type_id', 'expire', 'active', 'max_machines', 'suspended'] as const;
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
  /** The stored license's activation, when it is active (updates only). */
  activatedAt: string | null;
  errors: FieldErrors;
}

function TermFields({ kind, expire, onExpire, active, onActive, activatedAt, errors }: TermFieldsProps) {
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
          hint={expiryHint(isTrial, activatedAt, expire)}
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

interface LimitFieldsProps {
  maxMachines: string;
  onMaxMachines: (value: string) => void;
  suspended: boolean;
  onSuspended: (value: boolean) => void;
  isNew: boolean;
  errors: FieldErrors;
}

/** The machine limit and the suspension (issue 12, items 5 and 7). */
function LimitFields({ maxMachines, onMaxMachines, suspended, onSuspended, isNew, errors }: LimitFieldsProps) {
  return (
    <>
      <Field
        label="Max machines"
        name="max_machines"
        value={maxMachines}
        onChange={onMaxMachines}
        error={errors.max_machines}
        inputMode="numeric"
        hint={isNew ? 'Left empty: the default for this type in Licensing Settings.' : 'Machines that may be activated at once (1–1000).'}
      />
      <Checkbox label="Suspended (the software is refused until unsuspended)" name="suspended" checked={suspended} onChange={onSuspended} />
      {errors.suspended && <p className="field__error">{errors.suspended}</p>}
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
  const [maxMachines, setMaxMachines] = useState(existing ? String(existing.max_machines) : '');
  const [suspended, setSuspended] = useState(existing?.suspended === 1);
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
    if (maxMachines.trim() !== '') data.max_machines = maxMachines.trim();
    data.suspended = suspended ? 1 : 0;
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
      <TermFields
        kind={kind}
        expire={expire}
        onExpire={setExpire}
        active={active}
        onActive={setActive}
        activatedAt={existing?.active ? existing.activated_at : null}
        errors={form.errors}
      />
      <LimitFields
        maxMachines={maxMachines}
        onMaxMachines={setMaxMachines}
        suspended={suspended}
        onSuspended={setSuspended}
        isNew={!existing}
        errors={form.errors}
      />
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
