// /contact (docs/product/accounts.md#contact-form): Name, Email, Message and 'Send Email', behind the invisible bot check. The first
// error shows under name and under email, the general message below the message box; success says
// 'Message sent.'. Every message clears after 5 s (docs/product/states.md, docs/product/constants.md).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { sendContactMessage } from '../lib/api/account.ts';
import { preloadBotCheck, solveBotCheck } from '../lib/botcheck.ts';
import { $user } from '../stores/session.ts';
import { Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { useHydrated } from './ui/use-hydrated.ts';
import { useFormSubmit } from './ui/use-form-submit.ts';

export const CONTACT_CLEAR_DELAY_MS = 5000;

const FIELDS = ['name', 'email'] as const;

export default function ContactForm() {
  const hydrated = useHydrated();
  // Read only after hydration: the build rendered the form without a user.
  const storedUser = useStore($user);
  const user = hydrated ? storedUser : undefined;
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [text, setText] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, busyLabel: 'Checking…' });
  const [touched, setTouched] = useState(false);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(clearTimer.current), []);

  // A signed-in visitor need not type who they are; what they typed themselves always wins.
  const shownName = touched ? name : name || user?.name || '';
  const shownEmail = touched ? email : email || user?.email || '';

  // Whatever the outcome, the messages go after a while; a new submit starts the wait afresh.
  const send = async () => {
    if (form.busy) return;
    clearTimeout(clearTimer.current);
    await form.run(async (progress) => {
      const g_token = await solveBotCheck();
      progress('Sending…');
      const answer = await sendContactMessage({ name: shownName, email: shownEmail, message: text, g_token });
      setText('');
      return { text: answer.message, tone: 'success' };
    });
    clearTimer.current = setTimeout(() => form.clear(), CONTACT_CLEAR_DELAY_MS);
  };

  return (
    <form
      ref={formRef}
      className="form contact-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      onFocus={preloadBotCheck}
      aria-busy={form.busy}
    >
      <Field
        label="Name"
        name="name"
        value={shownName}
        onChange={(value) => {
          setTouched(true);
          setName(value);
          setEmail(shownEmail);
        }}
        error={form.errors.name}
        autoComplete="name"
      />
      <Field
        label="Email"
        name="email"
        type="email"
        value={shownEmail}
        onChange={(value) => {
          setTouched(true);
          setEmail(value);
          setName(shownName);
        }}
        error={form.errors.email}
        autoComplete="email"
      />
      <Field label="Message" name="message" value={text} onChange={setText} multiline />
      <Message message={form.message} />
      <div className="form__actions">
        <SubmitButton label="Send Email" busyLabel={form.busyLabel} disabled={!hydrated} />
      </div>
    </form>
  );
}
