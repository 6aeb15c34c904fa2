// 'Licensing Settings' on /admin (issue 12, item 7; docs/admin-api.md#licensing-settings): whether Request
// License grants a verified user a trial at once (off by default: the admin grants them). Read and retried by
// the one settings dialog (SettingsDialog.tsx), saved with the one form hook. The machine limits of new trial
// and perpetual licenses moved to the license types (issue 24: one place for a type's defaults; License Types dialog).
import { useRef, useState } from 'react';
import { loadLicensingSettings, saveLicensingSettings, type LicensingSettings } from '../../lib/api/admin.ts';
import { Checkbox } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { SettingsDialog } from './SettingsDialog.tsx';

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
      {/* Saved: Cancel would cancel nothing, so the button says what it does (issue 28, 2.19). */}
      <FormActions label="Save" busyLabel={form.busyLabel} onCancel={onClose} cancelLabel={form.message?.tone === 'success' ? 'Close' : 'Cancel'} />
    </form>
  );
}

export function LicensingSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <SettingsDialog title="Licensing Settings" what="the licensing settings" load={loadLicensingSettings} open={open} onClose={onClose}>
      {(settings) => <SettingsForm settings={settings} onClose={onClose} />}
    </SettingsDialog>
  );
}
