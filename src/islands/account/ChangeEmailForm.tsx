// "Change e-mail" on the dashboard (docs/product/accounts.md#change-e-mail): the new address and the password.
// The server mails a link to the new address; until it is followed the current address stays the account's,
// which the form says before and after sending.
import { useRef, useState } from 'react';
import { requestEmailChange } from '../../lib/api/account-security.ts';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { serverErrorFor5xx } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';

const FIELDS = ['email', 'password'] as const;

export function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, busyLabel: 'Sending…', statusMessage: serverErrorFor5xx });

  const submit = form.onSubmit(async () => {
    const answer = await requestEmailChange({ email: email.trim(), password });
    setPassword('');
    return { text: answer.message, tone: 'success' };
  });

  return (
    <section className="card account-section" aria-labelledby="change-email-heading">
      <h2 id="change-email-heading" className="card__title">
        Change e-mail
      </h2>
      <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
        <p className="field__hint">
          Your address is <strong className="account-section__email">{currentEmail}</strong>. It stays in use until you follow the link we send to the new
          address.
        </p>
        <Field label="New e-mail address" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={form.errors.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={form.errors.password}
        />
        <Message message={form.message} />
        <SubmitButton label="Send confirmation link" busyLabel={form.busyLabel} />
      </form>
    </section>
  );
}
