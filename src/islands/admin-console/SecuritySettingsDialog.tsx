// 'Security Settings' on /admin, beside Licensing Settings (docs/admin-api.md#security-settings): whether every
// admin must use two-factor sign-in (docs/product/accounts.md#two-factor-sign-in). Saved with the one form hook.
import { useRef, useState } from 'react';
import { loadSecuritySettings, saveSecuritySettings, type SecuritySettings } from '../../lib/api/admin.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Checkbox } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { useLoaded } from '../ui/use-loaded.ts';

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

function SecuritySettingsBody({ onClose }: { onClose: () => void }) {
  const { value, failed, reload } = useLoaded(loadSecuritySettings, 'the security settings');
  if (failed) {
    return (
      <p className="form-message__text form-message__text--error">
        The security settings could not be loaded.{' '}
        <button type="button" className="admin-link-button" onClick={() => void reload()}>
          Try again
        </button>
      </p>
    );
  }
  if (!value) return <p className="empty-note">Loading the security settings…</p>;
  return <SettingsForm settings={value} onClose={onClose} />;
}

export function SecuritySettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Security Settings" open={open} onClose={onClose}>
      {open && <SecuritySettingsBody onClose={onClose} />}
    </Dialog>
  );
}
