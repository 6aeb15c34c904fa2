// /reset-password (docs/product/accounts.md#password-reset): 'Enter your email:' and 'Send Reset Link'. The server answers the same
// for every well-formed address; a 422 shows its first email error (docs/product/messages.md#error-catalogue).
import { useRef, useState, type SubmitEvent } from 'react';
import { requestPasswordReset } from '../lib/api/account.ts';
import { ApiError } from '../lib/api/client.ts';
import { Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { firstFieldErrors, focusFirstInvalid, generalMessage, SERVER_ERROR, type FieldErrors, type FormMessage } from './ui/form-errors.ts';

export const RESET_SENT_MESSAGE = 'Message sent, please check your mailbox.';

export default function ResetPasswordRequest() {
  const formRef = useRef<HTMLFormElement>(null);
  // Carried over from the login modal's 'Forgot password' link or the new-password page.
  const [email, setEmail] = useState(() => new URLSearchParams(window.location.search).get('email') ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      const answer = await requestPasswordReset(email);
      setMessage({ text: answer.message ?? RESET_SENT_MESSAGE, tone: 'success' });
    } catch (error) {
      if (error instanceof ApiError && error.status >= 500) {
        setMessage({ text: SERVER_ERROR, tone: 'error' });
      } else {
        const fieldErrors = firstFieldErrors(error, ['email']);
        setErrors(fieldErrors);
        const text = generalMessage(error, fieldErrors);
        setMessage(text ? { text, tone: 'error' } : null);
        focusFirstInvalid(formRef.current);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <Field label="Enter your email:" name="email" type="email" value={email} onChange={setEmail} error={errors.email} autoComplete="email" />
      <Message message={message} />
      <div className="form__actions">
        <SubmitButton label="Send Reset Link" busyLabel={busy ? 'Sending…' : undefined} />
      </div>
    </form>
  );
}
