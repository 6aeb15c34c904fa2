// Turning two-factor off, or making new recovery codes (docs/product/accounts.md#two-factor-sign-in): both ask
// for the password and a current code (a recovery code works too, for a lost phone). New codes are then
// shown once in the same dialog.
import { useRef, useState } from 'react';
import { disableTwoFactor, regenerateRecoveryCodes } from '../../lib/api/two-factor.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { serverErrorFor5xx } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { IdentityCodeField, IdentityPasswordField } from './IdentityFields.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';

export type ConfirmAction = 'disable' | 'regenerate';

const WORDING: Record<ConfirmAction, { title: string; intro: string; label: string }> = {
  disable: {
    title: 'Turn off two-factor sign-in',
    intro: 'Signing in will then need only your password. Your recovery codes stop working.',
    label: 'Turn off',
  },
  regenerate: {
    title: 'New recovery codes',
    intro: 'Your current recovery codes stop working and ten new ones are shown once.',
    label: 'Make new codes',
  },
};

function ConfirmForm({ action, onDone, onCancel }: { action: ConfirmAction; onDone: (codes: string[] | null) => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['password', 'code'], statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' });
  const send = form.onSubmit(async () => {
    if (action === 'disable') {
      await disableTwoFactor({ password, code });
      onDone(null);
    } else {
      onDone((await regenerateRecoveryCodes({ password, code })).recovery_codes);
    }
  });
  return (
    <form ref={formRef} className="form" noValidate onSubmit={send} aria-busy={form.busy}>
      <p>{WORDING[action].intro}</p>
      <IdentityPasswordField value={password} onChange={setPassword} error={form.errors.password} autoFocusOnOpen />
      <IdentityCodeField value={code} onChange={setCode} error={form.errors.code} />
      <Message message={form.message} />
      <FormActions label={WORDING[action].label} busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

interface TwoFactorConfirmDialogProps {
  action: ConfirmAction | null;
  onClose: () => void;
  /** Two-factor was turned off (the session's user must be read again). */
  onDisabled: () => void;
}

export function TwoFactorConfirmDialog({ action, onClose, onDisabled }: TwoFactorConfirmDialogProps) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const close = () => {
    setCodes(null);
    onClose();
  };
  return (
    <Dialog title={action ? WORDING[action].title : ''} open={action !== null} onClose={close}>
      {action && !codes && (
        <ConfirmForm
          action={action}
          onCancel={close}
          onDone={(fresh) => {
            if (fresh) setCodes(fresh);
            else {
              close();
              onDisabled();
            }
          }}
        />
      )}
      {codes && (
        // A form's row spacing: Done apart from the codes' own buttons, as after turning it on (issue 28, 2.14).
        <div className="form">
          <RecoveryCodes codes={codes} />
          <div className="form__actions">
            <button type="button" className="button" onClick={close}>
              Done
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
