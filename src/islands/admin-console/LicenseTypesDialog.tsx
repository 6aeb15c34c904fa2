// 'License Types' on /admin (issue 24, item 1; docs/admin-api.md#license-types): the editions an admin sells,
// each with its defaults for a grant (machines or floating seats, days, maintenance) and its entitlement
// codes. The table lists them; Edit and New open the one form below, saved with the one form hook; Delete
// goes through the one confirm, and the server refuses a type in use (409) with its reason shown here.
// Trial and perpetual keep their names (the product relies on them), so their name field is read-only.
import { useRef, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox, Field } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { useLoaded } from '../ui/use-loaded.ts';
import { createLicenseType, deleteLicenseType, listLicenseTypeViews, updateLicenseType, type LicenseTypeView } from '../../lib/api/admin.ts';

const FIELDS = ['name', 'entitlements', 'max_machines', 'duration_days', 'maintenance_days', 'floating', 'lease_minutes'] as const;

/** "PRO_EXPORT, CAD_IMPORT" or one per line → the codes; the server checks each. */
export function codesFromText(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((code) => code.trim())
    .filter(Boolean);
}

function daysText(days: number, zero: string): string {
  return days === 0 ? zero : `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** One row's summary: "3 machines · 365 days · updates 1 year"; a floating type says seats and lease. */
export function typeSummary(type: Pick<LicenseTypeView, 'max_machines' | 'floating' | 'lease_minutes' | 'duration_days' | 'maintenance_days'>): string {
  const seats = type.floating
    ? `${type.max_machines} floating ${type.max_machines === 1 ? 'seat' : 'seats'}, ${type.lease_minutes}-minute lease`
    : `${type.max_machines} ${type.max_machines === 1 ? 'machine' : 'machines'}`;
  return `${seats} · ${daysText(type.duration_days, 'never expires')} · updates ${daysText(type.maintenance_days, 'without limit')}`;
}

interface TypeFormProps {
  type: LicenseTypeView | null;
  onSaved: (message: string) => void;
  onCancel: () => void;
}

function TypeForm({ type, onSaved, onCancel }: TypeFormProps) {
  const [name, setName] = useState(type?.name ?? '');
  const [codes, setCodes] = useState(type?.entitlements.join(', ') ?? '');
  const [maxMachines, setMaxMachines] = useState(String(type?.max_machines ?? 1));
  const [durationDays, setDurationDays] = useState(String(type?.duration_days ?? 365));
  const [maintenanceDays, setMaintenanceDays] = useState(String(type?.maintenance_days ?? 365));
  const [floating, setFloating] = useState(type?.floating === 1);
  const [leaseMinutes, setLeaseMinutes] = useState(String(type?.lease_minutes ?? 15));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS });

  const save = form.onSubmit(async () => {
    const data = {
      name: name.trim(),
      entitlements: codesFromText(codes),
      max_machines: maxMachines.trim(),
      duration_days: durationDays.trim(),
      maintenance_days: maintenanceDays.trim(),
      floating: floating ? (1 as const) : (0 as const),
      lease_minutes: leaseMinutes.trim(),
    };
    const answer = type ? await updateLicenseType(type.id, data) : await createLicenseType(data);
    onSaved(answer.message);
  });

  return (
    <form
      ref={formRef}
      className="form license-type-form"
      noValidate
      onSubmit={save}
      aria-busy={form.busy}
      aria-label={type ? `Edit ${type.name}` : 'New license type'}
    >
      <h3 className="license-type-form__heading">{type ? `Edit ${type.name}` : 'New license type'}</h3>
      {type?.built_in ? (
        <p className="field__hint">The {type.name} type keeps its name: the product relies on it.</p>
      ) : (
        <Field label="Name" name="name" value={name} onChange={setName} error={form.errors.name} autoFocusOnOpen />
      )}
      <Field
        label="Entitlements"
        name="entitlements"
        value={codes}
        onChange={setCodes}
        error={form.errors.entitlements}
        hint="Feature codes the software asks for, separated by commas: capitals, digits and underscores (PRO_EXPORT)."
      />
      <Checkbox label="Floating seats (leases renewed by heartbeats)" name="floating" checked={floating} onChange={setFloating} />
      <Field
        label={floating ? 'Seats' : 'Max machines'}
        name="max_machines"
        value={maxMachines}
        onChange={setMaxMachines}
        error={form.errors.max_machines}
        inputMode="numeric"
      />
      {floating && (
        <Field
          label="Lease (minutes)"
          name="lease_minutes"
          value={leaseMinutes}
          onChange={setLeaseMinutes}
          error={form.errors.lease_minutes}
          inputMode="numeric"
          hint="A seat is free this long after the last heartbeat (1–1440)."
        />
      )}
      <Field
        label="Expires after (days)"
        name="duration_days"
        value={durationDays}
        onChange={setDurationDays}
        error={form.errors.duration_days}
        inputMode="numeric"
        hint="0: never expires."
      />
      <Field
        label="Updates included (days)"
        name="maintenance_days"
        value={maintenanceDays}
        onChange={setMaintenanceDays}
        error={form.errors.maintenance_days}
        inputMode="numeric"
        hint="Maintenance after the grant; 0: no limit."
      />
      <Message message={form.message} />
      <FormActions label={type ? 'Save Type' : 'Add Type'} busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

function TypesBody({ confirm }: { confirm: Confirm }) {
  const { value, failed, reload } = useLoaded(listLicenseTypeViews, 'the license types');
  const [editing, setEditing] = useState<LicenseTypeView | 'new' | null>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);

  if (failed) return <p className="form-message__text form-message__text--error">The license types could not be loaded.</p>;
  if (!value) return <p className="empty-note">Loading the license types…</p>;

  const remove = async (type: LicenseTypeView) => {
    const ok = await confirm({ title: 'Delete License Type', message: `Delete the ${type.name} type?`, confirmLabel: 'Delete', danger: true });
    if (!ok) return;
    try {
      setMessage({ text: (await deleteLicenseType(type.id)).message, tone: 'success' });
      await reload();
    } catch (error) {
      setMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  return (
    <>
      <ul className="license-type-list" aria-label="License types">
        {value.license_types.map((type) => (
          <li key={type.id} className="license-type-list__item">
            <div>
              <strong>{type.name}</strong> <span className="license-type-list__summary">{typeSummary(type)}</span>
              <span className="license-type-list__codes">{type.entitlements.length > 0 ? type.entitlements.join(', ') : 'No entitlements'}</span>
              <span className="license-type-list__summary">
                {type.licenses} {type.licenses === 1 ? 'license' : 'licenses'}
              </span>
            </div>
            <div className="license-type-list__actions">
              <button type="button" className="button button--small" onClick={() => setEditing(type)} aria-label={`Edit ${type.name}`}>
                Edit
              </button>
              {!type.built_in && (
                <button type="button" className="button button--small button--danger" onClick={() => void remove(type)} aria-label={`Delete ${type.name}`}>
                  Delete
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <Message message={message} />
      {editing === null ? (
        <button type="button" className="button" onClick={() => setEditing('new')}>
          New Type
        </button>
      ) : (
        <TypeForm
          key={editing === 'new' ? 'new' : editing.id}
          type={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setMessage({ text, tone: 'success' });
            void reload();
          }}
        />
      )}
    </>
  );
}

export function LicenseTypesDialog({ open, onClose, confirm }: { open: boolean; onClose: () => void; confirm: Confirm }) {
  return (
    <Dialog title="License Types" open={open} onClose={onClose}>
      {open && <TypesBody confirm={confirm} />}
    </Dialog>
  );
}
