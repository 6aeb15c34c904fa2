// The license form (docs/product/admin.md#admin-screen) in add mode or update mode. The type decides the other fields: a
// perpetual license never expires, so the expiry-days field is hidden; a trial is always active from the
// grant (docs/decisions/0011), so the Active checkbox is hidden. Hidden fields are not sent, and the server
// applies the same rules whatever arrives. Errors come back per field (docs/product/messages.md#validation).
// Issue 12, item 7: the machine limit, the suspension, and extending = raising the days of an active license,
// whose new expiry the hint shows. Issue 24: the types are editions with defaults (a new license's days come
// from its type; an empty machine limit is the type's), and a license may have entitlements of its own and
// its own end of maintenance.
import { useRef, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field, SelectField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import type { FieldErrors } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { expiryHint } from './dates.ts';
import { codesFromText } from './LicenseTypesDialog.tsx';
import { storeLicense, updateLicense, type AdminUser, type License, type LicenseAnswer, type LicenseInput, type LicenseType } from '../../lib/api/admin.ts';

export type LicenseFormMode = { kind: 'add' } | { kind: 'update'; license: License };

const FIELDS = ['license_type_id', 'expire', 'active', 'max_machines', 'suspended', 'entitlements', 'maintenance_until'] as const;

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
        hint={isNew ? 'Left empty: the default of the type (License Types).' : 'Machines (or floating seats) that may be used at once (1–1000).'}
      />
      <Checkbox label="Suspended (the software is refused until unsuspended)" name="suspended" checked={suspended} onChange={onSuspended} />
      {errors.suspended && <p className="field__error">{errors.suspended}</p>}
    </>
  );
}

interface TermsOfUseProps {
  type: LicenseType | undefined;
  codes: string;
  onCodes: (value: string) => void;
  maintenance: string;
  onMaintenance: (value: string) => void;
  noLimit: boolean;
  onNoLimit: (value: boolean) => void;
  isNew: boolean;
  errors: FieldErrors;
}

/** The license's own entitlements (added to its type's) and its end of maintenance (issue 24, item 2). */
function TermsOfUse({ type, codes, onCodes, maintenance, onMaintenance, noLimit, onNoLimit, isNew, errors }: TermsOfUseProps) {
  const fromType = type && type.entitlements.length > 0 ? `The type gives ${type.entitlements.join(', ')}. ` : '';
  const defaultEnd = type ? (type.maintenance_days === 0 ? 'no limit' : `the grant date plus ${type.maintenance_days} days`) : 'the type’s';
  return (
    <>
      <Field
        label="Extra entitlements"
        name="entitlements"
        value={codes}
        onChange={onCodes}
        error={errors.entitlements}
        hint={`${fromType}Codes separated by commas.`}
      />
      <Checkbox label="Updates without time limit" name="maintenance_no_limit" checked={noLimit} onChange={onNoLimit} />
      {!noLimit && (
        <Field
          label="Updates included until (YYYY-MM-DD)"
          name="maintenance_until"
          value={maintenance}
          onChange={onMaintenance}
          error={errors.maintenance_until}
          hint={isNew ? `Left empty: ${defaultEnd}.` : 'Left empty: unchanged.'}
        />
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
  const [maxMachines, setMaxMachines] = useState(existing ? String(existing.max_machines) : '');
  const [suspended, setSuspended] = useState(existing?.suspended === 1);
  const [codes, setCodes] = useState(existing ? existing.extra_entitlements.join(', ') : '');
  const [maintenance, setMaintenance] = useState(existing?.maintenance_until ? existing.maintenance_until.slice(0, 10) : '');
  const [noLimit, setNoLimit] = useState(existing ? existing.maintenance_until === null : false);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS });
  const kind = typeName(types, licenseType);

  const chosen = types.find((type) => String(type.id) === licenseType);

  const chooseType = (value: string) => {
    setLicenseType(value);
    // A new license starts from its type's days (issue 24: one place for a type's defaults).
    const type = types.find((candidate) => String(candidate.id) === value);
    if (type && !existing) setExpire(String(type.duration_days));
  };

  const save = form.onSubmit(async () => {
    const data: LicenseInput = { license_type_id: licenseType === '' ? '' : Number(licenseType), user_id: user.id };
    if (kind !== 'perpetual') data.expire = expire.trim();
    if (kind !== 'trial') data.active = active ? 1 : 0;
    if (maxMachines.trim() !== '') data.max_machines = maxMachines.trim();
    data.suspended = suspended ? 1 : 0;
    data.entitlements = codesFromText(codes);
    if (noLimit) data.maintenance_until = null;
    else if (maintenance.trim() !== '') data.maintenance_until = maintenance.trim();
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
      <TermsOfUse
        type={chosen}
        codes={codes}
        onCodes={setCodes}
        maintenance={maintenance}
        onMaintenance={setMaintenance}
        noLimit={noLimit}
        onNoLimit={setNoLimit}
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
