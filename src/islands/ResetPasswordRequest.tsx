// /reset-password (SPEC.md 2.11): 'Enter your email:' and 'Send Reset Link'. The server answers the same
// for every well-formed address; a 422 shows its first email error (SPEC.md 8).
import { useRef, useState } from 'react';
import { api } from '../lib/api-client.ts';
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
    const answer = await api.post<{ message?: string }>('/api/auth/reset-password', { email });
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
