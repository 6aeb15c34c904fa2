// /reset-pasword/form (docs/product/accounts.md#password-reset; the path is spelt as in the mails): token and email come from the
// query (either missing → /). Shows the e-mail, New Password, Confirm Password, Submit and a 'Send new
// reset link' link. 422 and 500 show the field errors and the message; any other failure status shows
// 'Unexpected error, please contact admin. Error code: {status}' (docs/product/messages.md#error-catalogue). Whoever arrives signed in
// is logged out by the nav bar's script (the page carries data-sign-out-on-arrival).
import { useEffect, useRef, useState } from 'react';
import { setNewPassword } from '../lib/api/account.ts';
import { openAccountDialog } from '../scripts/account-root.ts';
import { Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { useFormSubmit } from './ui/use-form-submit.ts';

const FIELDS = ['password', 'password_confirmation', 'token', 'email'] as const;

export function unexpectedErrorMessage(status: number): string {
  return `Unexpected error, please contact admin. Error code: ${status}`;
}

/** 422 and 500 keep the server's words; any other status is worded by unexpectedErrorMessage. */
function statusMessage(status: number): string | undefined {
  return status === 422 || status === 500 ? undefined : unexpectedErrorMessage(status);
}

function readLink(search: string): { token: string; email: string } | null {
  const query = new URLSearchParams(search);
  const token = query.get('token');
  const email = query.get('email');
  return token && email ? { token, email } : null;
}

export default function NewPasswordForm() {
  const [link] = useState(() => readLink(window.location.search));
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, statusMessage });
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!link) window.location.replace('/');
  }, [link]);

  if (!link) return null;

  const save = async () => {
    const answer = await setNewPassword({ token: link.token, email: link.email, password, password_confirmation: confirmation });
    setPassword('');
    setConfirmation('');
    setDone(true);
    return { text: answer.message, tone: 'success' } as const;
  };

  const resetHref = `/reset-password?email=${encodeURIComponent(link.email)}`;

  if (done) {
    return (
      <div className="result-panel">
        <p className="result-panel__email">{link.email}</p>
        <Message message={form.message} />
        <button type="button" className="button" onClick={() => void openAccountDialog('login', { email: link.email })} aria-haspopup="dialog">
          Log in
        </button>
      </div>
    );
  }

  const linkProblems = [form.errors.token, form.errors.email].filter((text): text is string => Boolean(text));

  return (
    <form ref={formRef} className="form" noValidate onSubmit={form.onSubmit(save)} aria-busy={form.busy}>
      <div className="field">
        <span className="field__label">Email</span>
        <p className="field__static">{link.email}</p>
        {/* No input carries these (token and e-mail come from the link), so they announce themselves. */}
        <div role="alert">
          {linkProblems.map((text) => (
            <p key={text} className="field__error">
              {text}
            </p>
          ))}
        </div>
      </div>
      {/* The account's e-mail as a hidden username field, so password managers file the new password. */}
      <input type="email" name="username" value={link.email} autoComplete="username" readOnly hidden />
      <Field
        label="New Password"
        name="password"
        type="password"
        value={password}
        onChange={setPassword}
        error={form.errors.password}
        autoComplete="new-password"
      />
      <Field
        label="Confirm Password"
        name="password_confirmation"
        type="password"
        value={confirmation}
        onChange={setConfirmation}
        error={form.errors.password_confirmation}
        autoComplete="new-password"
      />
      <Message message={form.message} />
      <div className="form__actions">
        <SubmitButton label="Submit" busyLabel={form.busyLabel} />
        <a href={resetHref}>Send new reset link</a>
      </div>
    </form>
  );
}
