// 'Security Settings' on /admin, beside Licensing Settings (docs/admin-api.md#security-settings): whether every
// admin must use two-factor sign-in (docs/product/accounts.md#two-factor-sign-in). Read and retried by the one settings dialog (SettingsDialog.tsx), saved with the one form hook.
import { useRef, useState } from 'react';
import { loadSecuritySettings, saveSecuritySettings, type SecuritySettings } from '../../lib/api/admin.ts';
import { Checkbox } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { SettingsDialog } from './SettingsDialog.tsx';

const FIELDS = ['require_two_factor_for_admins'] as const;

function SettingsForm({ settings, onClose }: { settings: SecuritySettings; onClose: () => void }) {
  const [required, setRequired] = useState(Boolean(settings.require_two_factor_for_admins));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS });

  const save = form.onSubmit(async () => {
    const answer = await saveSecuritySettings({ require_two_factor_for_admins: required ? 1 : 0 });
    setRequired(Boolean(answer.require_two_factor_for_admins));
    return { text: answer.message, tone: 'success' };
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={save} aria-busy={form.busy}>
      <Checkbox label="Require two-factor sign-in for admins" name="require_two_factor_for_admins" checked={required} onChange={setRequired} />
      <p className="field__hint">
        When on, an admin without two-factor sign-in can use no admin tool until they turn it on in their dashboard. Turn it on for your own account first.
      </p>
      {form.errors.require_two_factor_for_admins && <p className="field__error">{form.errors.require_two_factor_for_admins}</p>}
      <Message message={form.message} />
      <FormActions label="Save" busyLabel={form.busyLabel} onCancel={onClose} />
    </form>
  );
}

export function SecuritySettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <SettingsDialog title="Security Settings" what="the security settings" load={loadSecuritySettings} open={open} onClose={onClose}>
      {(settings) => <SettingsForm settings={settings} onClose={onClose} />}
    </SettingsDialog>
  );
}
