// "Change password" on the dashboard (docs/product/accounts.md#change-password): the current password, the new
// one twice. On success every other session has ended, so the session list is read again (onChanged).
import { useRef, useState } from 'react';
import { changePassword } from '../../lib/api/account-security.ts';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { serverErrorFor5xx } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';

const FIELDS = ['current_password', 'password'] as const;
const EMPTY = { current_password: '', password: '', password_confirmation: '' };

export function ChangePasswordForm({ onChanged }: { onChanged: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, busyLabel: 'Changing…', statusMessage: serverErrorFor5xx });
  const set = (name: keyof typeof EMPTY) => (value: string) => setValues((current) => ({ ...current, [name]: value }));

  const submit = form.onSubmit(async () => {
    const answer = await changePassword(values);
    setValues(EMPTY);
    onChanged();
    return { text: answer.message, tone: 'success' };
  });

  return (
    <section className="card account-section" aria-labelledby="change-password-heading">
      <h2 id="change-password-heading" className="card__title">
        Change password
      </h2>
      <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
        <Field
          label="Current password"
          name="current_password"
          type="password"
          autoComplete="current-password"
          value={values.current_password}
          onChange={set('current_password')}
          error={form.errors.current_password}
        />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={form.errors.password}
          hint="At least 8 characters. Every other session is signed out."
        />
        <Field
          label="Confirm new password"
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          value={values.password_confirmation}
          onChange={set('password_confirmation')}
        />
        <Message message={form.message} />
        <SubmitButton label="Change password" busyLabel={form.busyLabel} />
      </form>
    </section>
  );
}
