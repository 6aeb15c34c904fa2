// The login's second step (docs/product/accounts.md#two-factor-sign-in), shown in the login dialog when the
// password step answers `{ two_factor: true }`: the 6-digit code from the authenticator app (the field
// phones fill from an SMS or app with autocomplete="one-time-code"), or, behind a toggle, a recovery code.
// Errors go under the field and to the live region; when the step has expired or used its tries the
// dialog goes back to the password with the server's reason. 'Use a passkey instead' answers the step with a
// passkey of the account (docs/product/accounts.md#passkeys), where the browser can use passkeys.
import type { SessionAnswer } from '../../stores/session.ts';
import { secondFactorPasskeyOptions } from '../../lib/api/passkeys.ts';
import { ApiError } from '../../lib/api/request.ts';
import { completeTwoFactorLogin } from '../../lib/api/two-factor.ts';
import { assertPasskey, passkeyFailureMessage, passkeysSupported } from '../../lib/webauthn.ts';
import { serverErrorFor5xx, type FormMessage } from '../../islands/ui/form-errors.ts';
import type { SubmitOutcome } from '../../islands/ui/form-submitter.ts';
import { actionButton, createField, createFormController, createMessageRegion, createSubmitButton, element, type FieldView } from './form-view.ts';

const FIELDS = ['code', 'recovery_code', 'passkey_response'] as const;

interface TwoFactorStepOptions {
  /** The session answer, as a plain login's: the dialog finishes the login with it. */
  onSignedIn: (answer: SessionAnswer) => SubmitOutcome | Promise<SubmitOutcome>;
  /** The step is void (expired, too many tries): back to the password with this message. */
  onRestart: (message: FormMessage) => void;
  /** The user goes back to the password step (another account, a mistyped address). */
  onBack: () => void;
}

const INSTRUCTIONS = {
  app: 'Enter the 6-digit code from your authenticator app.',
  recovery: 'Enter one of the recovery codes you saved when you turned on two-factor sign-in.',
};

/** The step's form; the caller puts it in the dialog and then calls `focus`. */
export function createTwoFactorStep({ onSignedIn, onRestart, onBack }: TwoFactorStepOptions): { form: HTMLFormElement; focus: () => void } {
  const form = element('form', 'form');
  const instructions = element('p', undefined, INSTRUCTIONS.app);
  const codeField = createField({ label: 'Authentication code', name: 'code', autoComplete: 'one-time-code', inputMode: 'numeric' });
  const recoveryField = createField({ label: 'Recovery code', name: 'recovery_code', autoComplete: 'off' });
  const message = createMessageRegion();
  const submit = createSubmitButton('Verify');
  const actions = element('div', 'form__actions');
  actions.append(submit.element, actionButton('Back to the password', 'button button--secondary', onBack));
  const passkeyButton = actionButton('Use a passkey instead', 'button button--secondary', () => void usePasskeyInstead());
  const passkeyRow = element('p', 'form__alternative');
  passkeyRow.append(passkeyButton);
  const toggle = actionButton('Use a recovery code instead', 'link-button', () => switchProof());
  const switchRow = element('p', 'form__switch');
  switchRow.append(toggle);
  form.append(instructions, codeField.element, message.element, actions, switchRow);

  const controller = createFormController(
    form,
    { fields: { code: codeField, recovery_code: recoveryField }, submit, message, disabledWhileBusy: () => [passkeyButton] },
    { fields: FIELDS, statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' },
  );

  let useRecovery = false;
  const activeField = (): FieldView => (useRecovery ? recoveryField : codeField);
  const focus = () => activeField().input.focus();
  const switchProof = () => {
    const leaving = activeField();
    useRecovery = !useRecovery;
    instructions.textContent = useRecovery ? INSTRUCTIONS.recovery : INSTRUCTIONS.app;
    toggle.textContent = useRecovery ? 'Use a code from your authenticator app instead' : 'Use a recovery code instead';
    leaving.element.replaceWith(activeField().element);
    controller.clear();
    focus();
  };

  void passkeysSupported().then(
    (yes) => yes && switchRow.before(passkeyRow),
    () => undefined,
  );

  /** A void step (401) goes back to the password with the server's reason. */
  const restartOn401 = (error: unknown): boolean => {
    if (!(error instanceof ApiError) || error.status !== 401) return false;
    onRestart({ text: error.body.message ?? 'Please log in again.', tone: 'error' });
    return true;
  };

  const complete = async (input: Parameters<typeof completeTwoFactorLogin>[0]) => {
    try {
      return await onSignedIn(await completeTwoFactorLogin(input));
    } catch (error) {
      if (restartOn401(error)) return undefined;
      throw error;
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void controller.run(() => complete(useRecovery ? { recovery_code: recoveryField.input.value } : { code: codeField.input.value }));
  });

  const usePasskeyInstead = () =>
    controller.run(async (progress) => {
      progress('Waiting for your passkey…');
      let passkey_response;
      try {
        passkey_response = await assertPasskey(await secondFactorPasskeyOptions());
      } catch (error) {
        if (restartOn401(error)) return undefined;
        const text = passkeyFailureMessage(error);
        if (text) return { text, tone: 'error' };
        throw error;
      }
      return complete({ passkey_response });
    });

  return { form, focus };
}
