// Turning on two-factor sign-in (docs/product/accounts.md#two-factor-sign-in): the dialog asks the server for a
// new secret as it opens, shows its QR code (the server's SVG, as an image: markup from an answer is never
// put into the page) and the secret as text to type into the app, takes the first code, and then shows the
// recovery codes once.
import { useEffect, useId, useRef, useState } from 'react';
import { enableTwoFactor, startTwoFactorSetup, type TwoFactorSetup } from '../../lib/api/two-factor.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { serverErrorFor5xx, serverMessage } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';

function SecretDetails({ setup }: { setup: TwoFactorSetup }) {
  const id = useId();
  // A data: URL keeps the SVG an image: nothing in it could run or style the page.
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`;
  return (
    <div className="two-factor-setup">
      <p>Scan this QR code with your authenticator app, or type the key below into it.</p>
      <img className="two-factor-setup__qr" src={qr} alt="QR code for your authenticator app (the same key is written below)" width={200} height={200} />
      <p className="license-key">
        <code id={id} className="license-key__value">
          {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
        <CopyButton targetId={id} label="Copy the key" />
      </p>
    </div>
  );
}

function EnableForm({ setup, onEnabled, onCancel }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const [code, setCode] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['code'], statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' });
  const send = form.onSubmit(async () => {
    const answer = await enableTwoFactor(code);
    onEnabled(answer.recovery_codes);
  });
  return (
    <form ref={formRef} className="form" noValidate onSubmit={send} aria-busy={form.busy}>
      <SecretDetails setup={setup} />
      <Field
        label="Code from the app"
        name="code"
        value={code}
        onChange={setCode}
        error={form.errors.code}
        autoComplete="one-time-code"
        inputMode="numeric"
        hint="The 6 digits the app shows for this account."
      />
      <Message message={form.message} />
      <FormActions label="Turn on" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

type Stage = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'confirm'; setup: TwoFactorSetup } | { kind: 'done'; codes: string[] };

function SetupFlow({ onClose, onEnabled }: { onClose: () => void; onEnabled: () => void }) {
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    startTwoFactorSetup().then(
      (setup) => live && setStage({ kind: 'confirm', setup }),
      (error: unknown) => live && setStage({ kind: 'failed', message: serverMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, []);

  if (stage.kind === 'loading') return <p role="status">Preparing your key…</p>;
  if (stage.kind === 'failed') {
    return (
      <>
        <Message message={{ text: stage.message, tone: 'error' }} />
        <div className="form__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </>
    );
  }
  if (stage.kind === 'confirm') {
    return (
      <EnableForm
        setup={stage.setup}
        onCancel={onClose}
        onEnabled={(codes) => {
          setStage({ kind: 'done', codes });
          onEnabled();
        }}
      />
    );
  }
  // The same spacing as a form's rows, so Done stands apart from the codes' own buttons (issue 28, 2.14).
  return (
    <div className="form">
      <p role="status">Two-factor sign-in is on.</p>
      <RecoveryCodes codes={stage.codes} />
      <div className="form__actions">
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}

export function TwoFactorSetupDialog({ open, onClose, onEnabled }: { open: boolean; onClose: () => void; onEnabled: () => void }) {
  // Once it is on, the title stops asking to turn it on and says what is left to do (issue 28, 2.14).
  const [enabled, setEnabled] = useState(false);
  const close = () => {
    setEnabled(false);
    onClose();
  };
  return (
    <Dialog title={enabled ? 'Save your recovery codes' : 'Turn on two-factor sign-in'} open={open} onClose={close}>
      {open && (
        <SetupFlow
          onClose={close}
          onEnabled={() => {
            setEnabled(true);
            onEnabled();
          }}
        />
      )}
    </Dialog>
  );
}
