// The login / registration modal of docs/product/routes.md#navigation-bar: one dialog titled 'Login Form' or 'Registration Form'
// ('Two-factor sign-in' at the login's code step, with a way back to the password), built afresh on every
// opening, submitted through the invisible bot check. After a login the modal closes and admins go to
// /admin, everyone else to /dashboard (or the opener's continuation runs instead). After a registration the
// fields are cleared, the server's message shows in the success colour, and a Log in button switches to the
// login form with the new address filled in (issue 14). With two-factor on, the password step answers
// `{ two_factor: true }` and the dialog asks for the code (two-factor-step.ts). Passkeys
// (docs/product/accounts.md#passkeys): 'Sign in with a passkey' under Login, and where the browser supports
// it the e-mail field's autofill offers the passkeys too (conditional mediation, started when the login form
// shows and cancelled when it goes). A passkey answers like a login: the same ending.
import { login, register } from '../../lib/api/account.ts';
import type { SessionAnswer } from '../../stores/session.ts';
import { passkeySignInOptions, signInWithPasskey } from '../../lib/api/passkeys.ts';
import { ApiError, fetchCsrfCookie } from '../../lib/api/request.ts';
import { preloadBotCheck, solveBotCheck } from '../../lib/botcheck.ts';
import { assertPasskey, cancelPasskeyCeremony, passkeyAutofillSupported, passkeyFailureMessage, passkeysSupported } from '../../lib/webauthn.ts';
import { serverErrorFor5xx, serverMessage, type FormMessage } from '../../islands/ui/form-errors.ts';
import { STAY_BUSY } from '../../islands/ui/form-submitter.ts';
import { closeAccountDialog, showAccountDialog, type AccountDialogState } from '../../stores/account-dialog.ts';
import { accountHomePath, setSession } from '../../stores/session.ts';
import { actionButton, createCheckbox, createField, createFormController, createMessageRegion, createSubmitButton, element } from './form-view.ts';
import { createTwoFactorStep } from './two-factor-step.ts';

const FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;

export type AuthState = AccountDialogState & { mode: 'login' | 'register' };

const AUTH_TITLES = { login: 'Login Form', register: 'Registration Form', codeStep: 'Two-factor sign-in' } as const;

/** The end of a login, after the password, the code or a passkey: the same for all. */
function finishLogin(answer: SessionAnswer, state: AuthState) {
  setSession(answer);
  closeAccountDialog();
  if (state.onLoggedIn) return state.onLoggedIn(answer.user);
  window.location.assign(accountHomePath(answer.user));
  return STAY_BUSY;
}

/** A passkey alone signs in: options, the browser's prompt (or the autofill's pick), then the answer. */
async function passkeyLogIn(remember: boolean, state: AuthState, options: { autofill: boolean }) {
  const optionsJSON = await passkeySignInOptions({ loading: false });
  const response = await assertPasskey(optionsJSON, { autofill: options.autofill });
  return finishLogin(await signInWithPasskey({ response, remember_me: remember }), state);
}

interface AuthDialogView {
  body: HTMLElement;
  setTitle: (title: string) => void;
  /** Focuses the step just shown. */
  focus: () => void;
}

/** Shows the form of one opening in the dialog; the returned function ends it (the dialog closed or moved on). */
export function showAuthForm(state: AuthState, view: AuthDialogView): () => void {
  const isLogin = state.mode === 'login';
  let ended = false;
  const form = element('form', 'form');
  const nameField = createField({ label: 'User name', name: 'name', autoComplete: 'name', autofocus: true });
  const emailField = createField({
    label: 'Email',
    name: 'email',
    type: 'email',
    autoComplete: isLogin ? 'username webauthn' : 'email',
    autofocus: isLogin,
    value: state.email ?? '',
  });
  const passwordField = createField({ label: 'Password', name: 'password', type: 'password', autoComplete: isLogin ? 'current-password' : 'new-password' });
  const confirmationField = createField({ label: 'Confirm password', name: 'password_confirmation', type: 'password', autoComplete: 'new-password' });
  const remember = createCheckbox('Remember me', 'remember_me');
  const message = createMessageRegion();
  const submit = createSubmitButton(isLogin ? 'Login' : 'Register');
  const passkeyButton = actionButton('Sign in with a passkey', 'button button--secondary', () => void signInWithAPasskey());
  const passkeyRow = element('p', 'form__alternative');
  passkeyRow.append(passkeyButton);
  const modeSwitch = element('p', 'form__switch', isLogin ? 'No account yet? ' : 'Already registered? ');
  modeSwitch.append(actionButton(isLogin ? 'Register' : 'Log in', 'link-button', () => showAccountDialog(isLogin ? 'register' : 'login')));
  const actions = element('div', 'form__actions');
  actions.append(submit.element);

  if (state.note) form.append(element('p', 'form__note', state.note));
  if (!isLogin) form.append(nameField.element);
  form.append(emailField.element, passwordField.element);
  if (!isLogin) form.append(confirmationField.element);
  if (isLogin) form.append(loginOptions(emailField.input, remember.element));
  form.append(message.element, actions, modeSwitch);

  const controller = createFormController(
    form,
    {
      fields: { name: nameField, email: emailField, password: passwordField, password_confirmation: confirmationField },
      submit,
      message,
      disabledWhileBusy: () => [passkeyButton],
    },
    { fields: FIELDS, statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' },
  );

  // The proof-of-work solver is a separate chunk: fetch it while the user types.
  preloadBotCheck();

  const showPasswordStep = (restartMessage?: FormMessage | null) => {
    view.setTitle(isLogin ? AUTH_TITLES.login : AUTH_TITLES.register);
    view.body.replaceChildren(form);
    if (restartMessage !== undefined) controller.setMessage(restartMessage);
    if (isLogin) startPasskeyAutofill();
  };

  const showCodeStep = () => {
    stopPasskeyAutofill();
    // Back: the password step again, its fields as they were (issue 28, 2.21); a new password step
    // replaces the pending login.
    const back = (restartMessage: FormMessage | null) => {
      showPasswordStep(restartMessage);
      view.focus();
    };
    const step = createTwoFactorStep({ onSignedIn: (answer) => finishLogin(answer, state), onRestart: back, onBack: () => back(null) });
    view.setTitle(AUTH_TITLES.codeStep);
    view.body.replaceChildren(step.form);
    step.focus();
  };

  // Conditional mediation: the browser offers passkeys in the e-mail field's suggestions, and this waits
  // until the user picks one (or the form goes). Failures are quiet: the form is still there.
  // Not through the form's controller: the wait is not a submission and must not block the Login button.
  // Each start is a run of its own: a run the form has moved on from (code step, closed) stays quiet.
  let autofillRuns = 0;
  let activeAutofill = 0;
  function startPasskeyAutofill() {
    autofillRuns += 1;
    const run = autofillRuns;
    activeAutofill = run;
    void (async () => {
      if (!(await passkeyAutofillSupported()) || activeAutofill !== run) return;
      try {
        await passkeyLogIn(remember.input.checked, state, { autofill: true });
      } catch (error) {
        if (activeAutofill === run && error instanceof ApiError) controller.setMessage({ text: serverMessage(error), tone: 'error' });
      }
    })().catch(() => undefined);
  }
  function stopPasskeyAutofill() {
    if (activeAutofill === 0) return;
    activeAutofill = 0;
    void cancelPasskeyCeremony().catch(() => undefined);
  }

  const signInWithAPasskey = () =>
    controller.run(async (progress) => {
      progress('Waiting for your passkey…');
      try {
        return await passkeyLogIn(remember.input.checked, state, { autofill: false });
      } catch (error) {
        const text = passkeyFailureMessage(error);
        if (text) return { text, tone: 'error' };
        throw error;
      }
    });

  // After a registration the success message offers to log in with the new address (issue 14), in place
  // of the mode switch.
  let registeredAddress = '';
  const logInRow = element('p', 'form__switch');
  logInRow.append(actionButton('Log in', 'button', () => showAccountDialog('login', { email: registeredAddress })));
  const registered = (address: string, text: string): FormMessage => {
    for (const field of [nameField, emailField, passwordField, confirmationField]) field.input.value = '';
    registeredAddress = address;
    modeSwitch.remove();
    message.element.after(logInRow);
    return { text, tone: 'success' };
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void controller.run(async (progress) => {
      const g_token = await solveBotCheck();
      progress(isLogin ? 'Logging in…' : 'Registering…');
      if (isLogin) {
        // The anti-forgery cookie is fetched before every login (docs/decisions/0004-auth-core.md).
        await fetchCsrfCookie();
        const answer = await login({ email: emailField.input.value, password: passwordField.input.value, remember_me: remember.input.checked, g_token });
        if (!('two_factor' in answer)) return finishLogin(answer, state);
        if (!ended) showCodeStep();
        return undefined;
      }
      const email = emailField.input.value.trim();
      const answer = await register({
        name: nameField.input.value,
        email: emailField.input.value,
        password: passwordField.input.value,
        password_confirmation: confirmationField.input.value,
        g_token,
      });
      return registered(email, answer.message);
    });
  });

  if (isLogin) {
    void passkeysSupported().then(
      (yes) => yes && !ended && modeSwitch.before(passkeyRow),
      () => undefined,
    );
  }
  showPasswordStep();
  return () => {
    ended = true;
    stopPasskeyAutofill();
  };
}

/** 'Remember me' and the 'Forgot password' link, which carries the address typed so far. */
function loginOptions(email: HTMLInputElement, remember: HTMLElement): HTMLDivElement {
  const row = element('div', 'form__row');
  const reset = element('a', undefined, 'Forgot password');
  const follow = () => {
    const address = email.value.trim();
    reset.href = address ? `/reset-password?email=${encodeURIComponent(address)}` : '/reset-password';
  };
  follow();
  email.addEventListener('input', follow);
  row.append(remember, reset);
  return row;
}
