// The login / registration modal of docs/product/routes.md#navigation-bar: one dialog titled 'Login Form' or 'Registration Form',
// cleared on every opening, submitted through the invisible bot check. After a login the modal closes and
// admins go to /admin, everyone else to /dashboard (or the opener's continuation runs instead). After a
// registration the fields are cleared and the server's message shows in the success colour.
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { login, register } from '../lib/api/account.ts';
import { fetchCsrfCookie, ApiError } from '../lib/api/client.ts';
import { BotCheckError, BOTCHECK_UNAVAILABLE_MESSAGE, preloadBotCheck, solveBotCheck } from '../lib/botcheck.ts';
import { closeAccountDialog, showAccountDialog, type AccountDialogState } from '../stores/account-dialog.ts';
import { isAdminUser, setSession } from '../stores/session.ts';
import { Dialog } from './ui/Dialog.tsx';
import { Checkbox, Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { firstFieldErrors, focusFirstInvalid, generalMessage, SERVER_ERROR, type FieldErrors, type FormMessage } from './ui/form-errors.ts';

type Phase = 'idle' | 'checking' | 'sending';

const FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;

function AuthForm({ state }: { state: AccountDialogState & { mode: 'login' | 'register' } }) {
  const isLogin = state.mode === 'login';
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState(state.email ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');

  // The proof-of-work solver is a separate chunk: fetch it while the user types.
  useEffect(() => preloadBotCheck(), []);

  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status === 500) {
      setErrors({});
      setMessage({ text: SERVER_ERROR, tone: 'error' });
      return;
    }
    const fieldErrors = firstFieldErrors(error, FIELDS);
    setErrors(fieldErrors);
    const text = generalMessage(error, fieldErrors);
    setMessage(text ? { text, tone: 'error' } : null);
    focusFirstInvalid(formRef.current);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (phase !== 'idle') return;
    setErrors({});
    setMessage(null);
    setPhase('checking');
    let g_token: string;
    try {
      g_token = await solveBotCheck();
    } catch (error) {
      setMessage({ text: error instanceof BotCheckError ? error.message : BOTCHECK_UNAVAILABLE_MESSAGE, tone: 'error' });
      setPhase('idle');
      return;
    }
    setPhase('sending');
    try {
      if (isLogin) {
        // docs/product/api.md: the anti-forgery cookie is fetched before every login.
        await fetchCsrfCookie();
        const answer = await login({ email, password, remember_me: remember, g_token });
        setSession(answer);
        closeAccountDialog();
        if (state.onLoggedIn) {
          state.onLoggedIn(answer.user);
          return;
        }
        // Stay busy: the page is about to change.
        window.location.assign(isAdminUser(answer.user) ? '/admin' : '/dashboard');
        return;
      }
      const answer = await register({ name, email, password, password_confirmation: confirmation, g_token });
      setName('');
      setEmail('');
      setPassword('');
      setConfirmation('');
      setMessage({ text: answer.message, tone: 'success' });
      setPhase('idle');
    } catch (error) {
      fail(error);
      setPhase('idle');
    }
  };

  const busyLabel = phase === 'checking' ? 'Checking…' : phase === 'sending' ? (isLogin ? 'Logging in…' : 'Registering…') : undefined;
  const resetHref = email.trim() ? `/reset-password?email=${encodeURIComponent(email.trim())}` : '/reset-password';

  return (
    <form ref={formRef} className="form" noValidate onSubmit={(event) => void submit(event)} aria-busy={phase !== 'idle'}>
      {!isLogin && <Field label="User name" name="name" value={name} onChange={setName} error={errors.name} autoComplete="name" autoFocusOnOpen />}
      <Field label="Email" name="email" type="email" value={email} onChange={setEmail} error={errors.email} autoComplete={isLogin ? 'username' : 'email'} autoFocusOnOpen={isLogin} />
      <Field label="Password" name="password" type="password" value={password} onChange={setPassword} error={errors.password} autoComplete={isLogin ? 'current-password' : 'new-password'} />
      {!isLogin && (
        <Field
          label="Confirm password"
          name="password_confirmation"
          type="password"
          value={confirmation}
          onChange={setConfirmation}
          error={errors.password_confirmation}
          autoComplete="new-password"
        />
      )}
      {isLogin && (
        <div className="form__row">
          <Checkbox label="Remember me" name="remember_me" checked={remember} onChange={setRemember} />
          <a href={resetHref}>Forgot password</a>
        </div>
      )}
      <Message message={message} />
      <div className="form__actions">
        <SubmitButton label={isLogin ? 'Login' : 'Register'} busyLabel={busyLabel} />
      </div>
      <p className="form__switch">
        {isLogin ? 'No account yet? ' : 'Already registered? '}
        <button type="button" className="link-button" onClick={() => showAccountDialog(isLogin ? 'register' : 'login')}>
          {isLogin ? 'Register' : 'Log in'}
        </button>
      </p>
    </form>
  );
}

export function AuthDialog({ state }: { state: AccountDialogState | null }) {
  const authState = state && (state.mode === 'login' || state.mode === 'register') ? { ...state, mode: state.mode } : null;
  return (
    <Dialog title={authState?.mode === 'register' ? 'Registration Form' : 'Login Form'} open={authState !== null} onClose={closeAccountDialog}>
      {/* A new key per opening: every field, error and message starts empty (docs/product/routes.md#navigation-bar). */}
      {authState && <AuthForm key={authState.openedAt} state={authState} />}
    </Dialog>
  );
}
