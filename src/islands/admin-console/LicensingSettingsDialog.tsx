// 'Licensing Settings' on /admin (issue 12, item 7; docs/admin-api.md#licensing-settings): whether Request
// License grants a verified user a trial at once (off by default: the admin grants them). Saved with the one
// form hook. The machine limits of new trial and perpetual licenses moved to the license types (issue 24:
// one place for a type's defaults; License Types dialog).
import { useRef, useState } from 'react';
import { loadLicensingSettings, saveLicensingSettings, type LicensingSettings } from '../../lib/api/admin.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { useLoaded } from '../ui/use-loaded.ts';

const FIELDS = ['auto_grant_trials'] as const;

function SettingsForm({ settings, onClose }: { settings: LicensingSettings; onClose: () => void }) {
  const [autoGrant, setAutoGrant] = useState(Boolean(settings.auto_grant_trials));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS });

  const save = form.onSubmit(async () => {
    const answer = await saveLicensingSettings({ auto_grant_trials: autoGrant ? 1 : 0 });
    setAutoGrant(Boolean(answer.auto_grant_trials));
    return { text: answer.message, tone: 'success' };
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={save} aria-busy={form.busy}>
      <p className="admin-form-lead">A type's defaults (machines, days, features) are set in License Types.</p>
      <Checkbox label="Grant trials automatically to verified users" name="auto_grant_trials" checked={autoGrant} onChange={setAutoGrant} />
      <p className="field__hint">When on, Request License gives a verified user without a license an active trial at once (one per user).</p>
      {form.errors.auto_grant_trials && <p className="field__error">{form.errors.auto_grant_trials}</p>}
      <Message message={form.message} />
      <FormActions label="Save" busyLabel={form.busyLabel} onCancel={onClose} />
    </form>
  );
}

function LicensingSettingsBody({ onClose }: { onClose: () => void }) {
  const { value, failed, reload } = useLoaded(loadLicensingSettings, 'the licensing settings');
  if (failed) {
    return (
      <p className="form-message__text form-message__text--error">
        The licensing settings could not be loaded.{' '}
        <button type="button" className="admin-link-button" onClick={() => void reload()}>
          Try again
        </button>
      </p>
    );
  }
  if (!value) return <p className="empty-note">Loading the licensing settings…</p>;
  return <SettingsForm settings={value} onClose={onClose} />;
}

export function LicensingSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Licensing Settings" open={open} onClose={onClose}>
      {open && <LicensingSettingsBody onClose={onClose} />}
    </Dialog>
  );
}
