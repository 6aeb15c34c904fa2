// /reset-password (docs/product/accounts.md#password-reset): 'Enter your email:' and 'Send Reset Link'. The server answers the same
// for every well-formed address; a 422 shows its first email error (docs/product/messages.md#error-catalogue).
import { useRef, useState } from 'react';
import { requestPasswordReset } from '../lib/api/account.ts';
import { Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { serverErrorFor5xx } from './ui/form-errors.ts';
import { useFormSubmit } from './ui/use-form-submit.ts';

export const RESET_SENT_MESSAGE = 'Message sent, please check your mailbox.';

export default function ResetPasswordRequest() {
  // Carried over from the login modal's 'Forgot password' link or the new-password page.
  const [email, setEmail] = useState(() => new URLSearchParams(window.location.search).get('email') ?? '');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['email'], statusMessage: serverErrorFor5xx, busyLabel: 'Sending…' });

  const send = async () => {
    const answer = await requestPasswordReset(email);
    return { text: answer.message ?? RESET_SENT_MESSAGE, tone: 'success' } as const;
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={form.onSubmit(send)} aria-busy={form.busy}>
      <Field label="Enter your email:" name="email" type="email" value={email} onChange={setEmail} error={form.errors.email} autoComplete="email" />
      <Message message={form.message} />
      <div className="form__actions">
        <SubmitButton label="Send Reset Link" busyLabel={form.busyLabel} />
      </div>
    </form>
  );
}
