// The login / registration modal of docs/product/routes.md#navigation-bar: one dialog titled 'Login Form' or 'Registration Form'
// ('Two-factor sign-in' at the login's code step, with a way back to the password),
// cleared on every opening, submitted through the invisible bot check. After a login the modal closes and
// admins go to /admin, everyone else to /dashboard (or the opener's continuation runs instead). After a
// registration the fields are cleared, the server's message shows in the success colour, and a Log in
// button switches to the login form with the new address filled in (issue 14). With two-factor on, the
// password step answers `{ two_factor: true }` and the dialog asks for the code (TwoFactorLoginStep).
// Passkeys (docs/product/accounts.md#passkeys): 'Sign in with a passkey' under Login, and where the browser
// supports it the e-mail field's autofill offers the passkeys too (conditional mediation, started when the
// login form opens and cancelled when it closes). A passkey answers like a login: the same ending.
import { useEffect, useRef, useState } from 'react';
import { login, register, type SessionAnswer } from '../lib/api/account.ts';
import { passkeySignInOptions, signInWithPasskey } from '../lib/api/passkeys.ts';
import { cancelPasskeyCeremony, passkeyAutofillSupported, passkeyFailureMessage, passkeysSupported, assertPasskey } from '../lib/webauthn.ts';
import { ApiError, fetchCsrfCookie } from '../lib/api/request.ts';
import { preloadBotCheck, solveBotCheck } from '../lib/botcheck.ts';
import { closeAccountDialog, showAccountDialog, type AccountDialogState } from '../stores/account-dialog.ts';
import { accountHomePath, setSession } from '../stores/session.ts';
import { Dialog } from './ui/Dialog.tsx';
import { Checkbox, Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { serverErrorFor5xx, serverMessage, type FormMessage } from './ui/form-errors.ts';
import { TwoFactorLoginStep } from './TwoFactorLoginStep.tsx';
import { STAY_BUSY, useFormSubmit } from './ui/use-form-submit.ts';

const FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;

type AuthState = AccountDialogState & { mode: 'login' | 'register' };

interface Credentials {
  name: string;
  email: string;
  password: string;
  confirmation: string;
}

const EMPTY: Credentials = { name: '', email: '', password: '', confirmation: '' };

/** The end of a login, after the password or after the code: the same for both. */
function finishLogin(answer: SessionAnswer, state: AuthState) {
  setSession(answer);
  closeAccountDialog();
  if (state.onLoggedIn) return state.onLoggedIn(answer.user);
  window.location.assign(accountHomePath(answer.user));
  return STAY_BUSY;
}

/** The password step; 'two-factor' when the account asks for a code next. */
async function logIn({ email, password }: Credentials, remember: boolean, g_token: string, state: AuthState) {
  // The anti-forgery cookie is fetched before every login (docs/decisions/0004-auth-core.md).
  await fetchCsrfCookie();
  const answer = await login({ email, password, remember_me: remember, g_token });
  if ('two_factor' in answer) return 'two-factor' as const;
  return finishLogin(answer, state);
}

/** A passkey alone signs in: options, the browser's prompt (or the autofill's pick), then the answer. */
async function passkeyLogIn(remember: boolean, state: AuthState, options: { autofill: boolean }) {
  const optionsJSON = await passkeySignInOptions({ loading: false });
  const response = await assertPasskey(optionsJSON, { autofill: options.autofill });
  return finishLogin(await signInWithPasskey({ response, remember_me: remember }), state);
}

function LoginOptions({ email, remember, onRemember }: { email: string; remember: boolean; onRemember: (value: boolean) => void }) {
  const resetHref = email.trim() ? `/reset-password?email=${encodeURIComponent(email.trim())}` : '/reset-password';
  return (
    <div className="form__row">
      <Checkbox label="Remember me" name="remember_me" checked={remember} onChange={onRemember} />
      <a href={resetHref}>Forgot password</a>
    </div>
  );
}

function ModeSwitch({ isLogin }: { isLogin: boolean }) {
  return (
    <p className="form__switch">
      {isLogin ? 'No account yet? ' : 'Already registered? '}
      <button type="button" className="link-button" onClick={() => showAccountDialog(isLogin ? 'register' : 'login')}>
        {isLogin ? 'Register' : 'Log in'}
      </button>
    </p>
  );
}

function AuthForm({ state, onCodeStep }: { state: AuthState; onCodeStep: (codeStep: boolean) => void }) {
  const isLogin = state.mode === 'login';
  const [credentials, setCredentials] = useState<Credentials>({ ...EMPTY, email: state.email ?? '' });
  const [remember, setRemember] = useState(false);
  const [codeStep, setCodeStep] = useState(false);
  // After a registration: the address, so the success message can offer to log in with it (issue 14).
  const [registered, setRegistered] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, statusMessage: serverErrorFor5xx, busyLabel: 'Checking…' });
  const set = (name: keyof Credentials) => (value: string) => setCredentials((current) => ({ ...current, [name]: value }));

  // The proof-of-work solver is a separate chunk: fetch it while the user types.
  useEffect(() => preloadBotCheck(), []);

  // Read by the autofill's sign-in, which may finish long after it started.
  const rememberRef = useRef(remember);
  const changeRemember = (value: boolean) => {
    rememberRef.current = value;
    setRemember(value);
  };
  const [passkeys, setPasskeys] = useState(false);
  useEffect(() => {
    if (!isLogin || codeStep) return undefined;
    let open = true;
    void passkeysSupported().then(
      (yes) => open && setPasskeys(yes),
      () => undefined,
    );
    // Conditional mediation: the browser offers passkeys in the e-mail field's suggestions, and this waits
    // until the user picks one (or the form closes). Failures are quiet: the form is still there.
    // Not through the form's submit: the wait is not a submission and must not block the Login button.
    void (async () => {
      if (!(await passkeyAutofillSupported()) || !open) return;
      try {
        await passkeyLogIn(rememberRef.current, state, { autofill: true });
      } catch (error) {
        if (open && error instanceof ApiError) form.setMessage({ text: serverMessage(error), tone: 'error' });
      }
    })().catch(() => undefined);
    return () => {
      open = false;
      void cancelPasskeyCeremony().catch(() => undefined);
    };
    // Started once per opening of the login form; `form` and `state` are stable for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isLogin, codeStep]);

  const signInWithAPasskey = () =>
    void form.run(async (progress) => {
      progress('Waiting for your passkey…');
      try {
        return await passkeyLogIn(remember, state, { autofill: false });
      } catch (error) {
        const text = passkeyFailureMessage(error);
        if (text) return { text, tone: 'error' };
        throw error;
      }
    });

  const send = form.onSubmit(async (progress) => {
    const g_token = await solveBotCheck();
    progress(isLogin ? 'Logging in…' : 'Registering…');
    if (isLogin) {
      const outcome = await logIn(credentials, remember, g_token, state);
      if (outcome !== 'two-factor') return outcome;
      setCodeStep(true);
      onCodeStep(true);
      return undefined;
    }
    const { name, email, password, confirmation } = credentials;
    const answer = await register({ name, email, password, password_confirmation: confirmation, g_token });
    setCredentials(EMPTY);
    setRegistered(email.trim());
    return { text: answer.message, tone: 'success' };
  });

  if (codeStep) {
    const restart = (message: FormMessage | null) => {
      setCodeStep(false);
      onCodeStep(false);
      form.setMessage(message);
    };
    // Back: the password step again, its fields as they were (issue 28, 2.21); a new password step
    // replaces the pending login.
    return <TwoFactorLoginStep onSignedIn={(answer) => finishLogin(answer, state)} onRestart={restart} onBack={() => restart(null)} />;
  }

  return (
    <form ref={formRef} className="form" noValidate onSubmit={send} aria-busy={form.busy}>
      {state.note && <p className="form__note">{state.note}</p>}
      {!isLogin && (
        <Field label="User name" name="name" value={credentials.name} onChange={set('name')} error={form.errors.name} autoComplete="name" autoFocusOnOpen />
      )}
      <Field
        label="Email"
        name="email"
        type="email"
        value={credentials.email}
        onChange={set('email')}
        error={form.errors.email}
        autoComplete={isLogin ? 'username webauthn' : 'email'}
        autoFocusOnOpen={isLogin}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        value={credentials.password}
        onChange={set('password')}
        error={form.errors.password}
        autoComplete={isLogin ? 'current-password' : 'new-password'}
      />
      {!isLogin && (
        <Field
          label="Confirm password"
          name="password_confirmation"
          type="password"
          value={credentials.confirmation}
          onChange={set('confirmation')}
          error={form.errors.password_confirmation}
          autoComplete="new-password"
        />
      )}
      {isLogin && <LoginOptions email={credentials.email} remember={remember} onRemember={changeRemember} />}
      <Message message={form.message} />
      {registered !== null && (
        <p className="form__switch">
          <button type="button" className="button" onClick={() => showAccountDialog('login', { email: registered })}>
            Log in
          </button>
        </p>
      )}
      <div className="form__actions">
        <SubmitButton label={isLogin ? 'Login' : 'Register'} busyLabel={form.busyLabel} />
      </div>
      {isLogin && passkeys && (
        <p className="form__alternative">
          <button type="button" className="button button--secondary" onClick={signInWithAPasskey} disabled={form.busy}>
            Sign in with a passkey
          </button>
        </p>
      )}
      {registered === null && <ModeSwitch isLogin={isLogin} />}
    </form>
  );
}

export function AuthDialog({ state }: { state: AccountDialogState | null }) {
  const authState = state && (state.mode === 'login' || state.mode === 'register') ? { ...state, mode: state.mode } : null;
  // The opening whose login is at the code step: that step has its own title (issue 28, 2.21).
  const [codeStepOf, setCodeStepOf] = useState<number | null>(null);
  const codeStep = authState !== null && codeStepOf === authState.openedAt;
  const title = codeStep ? 'Two-factor sign-in' : authState?.mode === 'register' ? 'Registration Form' : 'Login Form';
  return (
    <Dialog title={title} open={authState !== null} onClose={closeAccountDialog}>
      {/* A new key per opening: every field, error and message starts empty (docs/product/routes.md#navigation-bar). */}
      {authState && <AuthForm key={authState.openedAt} state={authState} onCodeStep={(step) => setCodeStepOf(step ? authState.openedAt : null)} />}
    </Dialog>
  );
}
