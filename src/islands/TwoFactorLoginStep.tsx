// The login's second step (docs/product/accounts.md#two-factor-sign-in), shown in the login dialog when the
// password step answers `{ two_factor: true }`: the 6-digit code from the authenticator app (the field
// phones fill from an SMS or app with autocomplete="one-time-code"), or, behind a toggle, a recovery code.
// Errors go under the field and to the live region; when the step has expired or used its tries the
// dialog goes back to the password with the server's reason. 'Use a passkey instead' answers the step with a
// passkey of the account (docs/product/accounts.md#passkeys), where the browser can use passkeys.
import { useEffect, useRef, useState } from 'react';
import { completeTwoFactorLogin } from '../lib/api/two-factor.ts';
import { secondFactorPasskeyOptions } from '../lib/api/passkeys.ts';
import { assertPasskey, passkeyFailureMessage, passkeysSupported } from '../lib/webauthn.ts';
import { ApiError } from '../lib/api/request.ts';
import { Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { serverErrorFor5xx, type FormMessage } from './ui/form-errors.ts';
import { useFormSubmit } from './ui/use-form-submit.ts';
import type { SessionAnswer } from '../lib/api/account.ts';
import type { SubmitOutcome } from './ui/form-submitter.ts';

const FIELDS = ['code', 'recovery_code', 'passkey_response'] as const;

interface TwoFactorLoginStepProps {
  /** The session answer, as a plain login's: the dialog finishes the login with it. */
  onSignedIn: (answer: SessionAnswer) => SubmitOutcome | Promise<SubmitOutcome>;
  /** The step is void (expired, too many tries): back to the password with this message. */
  onRestart: (message: FormMessage) => void;
  /** The user goes back to the password step (another account, a mistyped address). */
  onBack: () => void;
}

export function TwoFactorLoginStep({ onSignedIn, onRestart, onBack }: TwoFactorLoginStepProps) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' });

  // The step replaces the password form inside the open dialog: put the cursor in its field.
  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('input[name="code"], input[name="recovery_code"]')?.focus();
  }, [useRecovery]);

  const [passkeys, setPasskeys] = useState(false);
  useEffect(() => {
    let live = true;
    passkeysSupported().then(
      (yes) => live && setPasskeys(yes),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  /** The answer of the step, whichever proof it carries; a void step goes back to the password. */
  const complete = async (input: Parameters<typeof completeTwoFactorLogin>[0]) => {
    try {
      const answer = await completeTwoFactorLogin(input);
      return await onSignedIn(answer);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        onRestart({ text: error.body.message ?? 'Please log in again.', tone: 'error' });
        return undefined;
      }
      throw error;
    }
  };

  const send = form.onSubmit(() => complete(useRecovery ? { recovery_code: recoveryCode } : { code }));

  const usePasskeyInstead = () =>
    void form.run(async (progress) => {
      progress('Waiting for your passkey…');
      let passkey_response;
      try {
        passkey_response = await assertPasskey(await secondFactorPasskeyOptions());
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          onRestart({ text: error.body.message ?? 'Please log in again.', tone: 'error' });
          return undefined;
        }
        const text = passkeyFailureMessage(error);
        if (text) return { text, tone: 'error' };
        throw error;
      }
      return complete({ passkey_response });
    });

  const toggle = () => {
    setUseRecovery((current) => !current);
    form.clear();
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={send} aria-busy={form.busy}>
      <p>
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      {useRecovery ? (
        <Field
          label="Recovery code"
          name="recovery_code"
          value={recoveryCode}
          onChange={setRecoveryCode}
          error={form.errors.recovery_code}
          autoComplete="off"
        />
      ) : (
        <Field
          label="Authentication code"
          name="code"
          value={code}
          onChange={setCode}
          error={form.errors.code}
          autoComplete="one-time-code"
          inputMode="numeric"
        />
      )}
      <Message message={form.message} />
      <div className="form__actions">
        <SubmitButton label="Verify" busyLabel={form.busyLabel} />
        <button type="button" className="button button--secondary" onClick={onBack}>
          Back to the password
        </button>
      </div>
      {passkeys && (
        <p className="form__alternative">
          <button type="button" className="button button--secondary" onClick={usePasskeyInstead} disabled={form.busy}>
            Use a passkey instead
          </button>
        </p>
      )}
      <p className="form__switch">
        <button type="button" className="link-button" onClick={toggle}>
          {useRecovery ? 'Use a code from your authenticator app instead' : 'Use a recovery code instead'}
        </button>
      </p>
    </form>
  );
}
