// Adding, renaming and removing a passkey (docs/product/accounts.md#passkeys), one dialog with three forms.
// Adding asks for a name and, unless the sign-in is fresh, the password; then the browser's own prompt
// (fingerprint, face, screen lock) makes the passkey. Removing asks for the password unless a passkey signed
// this session in within 5 minutes (the card asks with use-confirm then, and never opens this dialog).
import { useRef, useState } from 'react';
import { passkeyRegistrationOptions, removePasskey, renamePasskey, savePasskey, type PasskeyItem } from '../../lib/api/passkeys.ts';
import { createPasskey, passkeyFailureMessage } from '../../lib/webauthn.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { IdentityPasswordField } from './IdentityFields.tsx';
import { Message } from '../ui/Message.tsx';
import { serverErrorFor5xx } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';

export type PasskeyAction = { kind: 'add'; needsPassword: boolean } | { kind: 'rename'; passkey: PasskeyItem } | { kind: 'remove'; passkey: PasskeyItem };

const TITLES = { add: 'Add a passkey', rename: 'Rename passkey', remove: 'Remove passkey' } as const;

function PasskeyForm({ action, onDone, onCancel }: { action: PasskeyAction; onDone: (message: string) => void; onCancel: () => void }) {
  const [name, setName] = useState(action.kind === 'add' ? '' : action.passkey.name);
  const [password, setPassword] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['name', 'password'], statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' });
  const askPassword = action.kind === 'add' ? action.needsPassword : action.kind === 'remove';

  const send = form.onSubmit(async (progress) => {
    if (action.kind === 'rename') {
      await renamePasskey(action.passkey.id, name);
      return onDone(`The passkey is now called ${name.trim()}.`);
    }
    if (action.kind === 'remove') {
      await removePasskey(action.passkey.id, password);
      return onDone(`${action.passkey.name} has been removed.`);
    }
    if (!name.trim()) return { text: 'Give the passkey a name, such as the device it is on.', tone: 'error' };
    const options = await passkeyRegistrationOptions(action.needsPassword ? password : undefined);
    progress('Waiting for your device…');
    let response;
    try {
      response = await createPasskey(options);
    } catch (error) {
      const text = passkeyFailureMessage(error);
      if (text) return { text, tone: 'error' };
      throw error;
    }
    progress('Saving…');
    const { passkey } = await savePasskey({ name, response });
    return onDone(`${passkey.name} has been added. You can now sign in with it.`);
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={send} aria-busy={form.busy}>
      {action.kind === 'add' && (
        <p>Your browser or phone will ask for your fingerprint, face or screen lock. The passkey stays on your device (or in your password manager).</p>
      )}
      {action.kind === 'remove' && <p>{action.passkey.name} will no longer sign you in. Remove it from the device too, in its settings.</p>}
      {action.kind !== 'remove' && (
        <Field
          label="Name"
          name="name"
          value={name}
          onChange={setName}
          error={form.errors.name}
          hint="For example, the device it is on: Work laptop, Phone."
          autoComplete="off"
          autoFocusOnOpen
        />
      )}
      {askPassword && <IdentityPasswordField value={password} onChange={setPassword} error={form.errors.password} autoFocusOnOpen={action.kind === 'remove'} />}
      <Message message={form.message} />
      <FormActions
        label={action.kind === 'add' ? 'Add passkey' : action.kind === 'rename' ? 'Save' : 'Remove'}
        busyLabel={form.busyLabel}
        onCancel={onCancel}
        danger={action.kind === 'remove'}
      />
    </form>
  );
}

interface PasskeyDialogProps {
  action: PasskeyAction | null;
  onClose: () => void;
  /** The change is made: the card reads the list again and shows `message`. */
  onChanged: (message: string) => void;
}

export function PasskeyDialog({ action, onClose, onChanged }: PasskeyDialogProps) {
  return (
    <Dialog title={action ? TITLES[action.kind] : ''} open={action !== null} onClose={onClose}>
      {action && (
        <PasskeyForm
          action={action}
          onCancel={onClose}
          onDone={(message) => {
            onClose();
            onChanged(message);
          }}
        />
      )}
    </Dialog>
  );
}
