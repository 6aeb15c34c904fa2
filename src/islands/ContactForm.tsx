// /contact (docs/product/accounts.md#contact-form): Name, Email, Message and 'Send Email', behind the invisible bot check. The first
// error shows under name and under email, the general message below the message box; success says
// 'Message sent.'. Every message clears after 5 s (docs/product/states.md, docs/product/constants.md).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { sendContactMessage } from '../lib/api/account.ts';
import { BotCheckError, BOTCHECK_UNAVAILABLE_MESSAGE, preloadBotCheck, solveBotCheck } from '../lib/botcheck.ts';
import { $user } from '../stores/session.ts';
import { Field } from './ui/Field.tsx';
import { Message } from './ui/Message.tsx';
import { SubmitButton } from './ui/SubmitButton.tsx';
import { useHydrated } from './ui/use-hydrated.ts';
import { firstFieldErrors, focusFirstInvalid, generalMessage, type FieldErrors, type FormMessage } from './ui/form-errors.ts';

export const CONTACT_CLEAR_DELAY_MS = 5000;

type Phase = 'idle' | 'checking' | 'sending';

export default function ContactForm() {
  const hydrated = useHydrated();
  // Read only after hydration: the build rendered the form without a user.
  const storedUser = useStore($user);
  const user = hydrated ? storedUser : undefined;
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [touched, setTouched] = useState(false);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(clearTimer.current), []);

  // A signed-in visitor need not type who they are; what they typed themselves always wins.
  const shownName = touched ? name : name || user?.name || '';
  const shownEmail = touched ? email : email || user?.email || '';

  const clearMessagesLater = () => {
    clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => {
      setErrors({});
      setMessage(null);
    }, CONTACT_CLEAR_DELAY_MS);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (phase !== 'idle') return;
    clearTimeout(clearTimer.current);
    setErrors({});
    setMessage(null);
    setPhase('checking');
    try {
      const g_token = await solveBotCheck();
      setPhase('sending');
      const answer = await sendContactMessage({ name: shownName, email: shownEmail, message: text, g_token });
      setText('');
      setMessage({ text: answer.message, tone: 'success' });
    } catch (error) {
      if (error instanceof BotCheckError) {
        setMessage({ text: error.message || BOTCHECK_UNAVAILABLE_MESSAGE, tone: 'error' });
      } else {
        const fieldErrors = firstFieldErrors(error, ['name', 'email']);
        setErrors(fieldErrors);
        const general = generalMessage(error, fieldErrors);
        setMessage(general ? { text: general, tone: 'error' } : null);
        focusFirstInvalid(formRef.current);
      }
    } finally {
      setPhase('idle');
      clearMessagesLater();
    }
  };

  const busyLabel = phase === 'checking' ? 'Checking…' : phase === 'sending' ? 'Sending…' : undefined;

  return (
    <form ref={formRef} className="form contact-form" noValidate onSubmit={(event) => void submit(event)} onFocus={preloadBotCheck} aria-busy={phase !== 'idle'}>
      <Field
        label="Name"
        name="name"
        value={shownName}
        onChange={(value) => {
          setTouched(true);
          setName(value);
          setEmail(shownEmail);
        }}
        error={errors.name}
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
        error={errors.email}
        autoComplete="email"
      />
      <Field label="Message" name="message" value={text} onChange={setText} multiline />
      <Message message={message} />
      <div className="form__actions">
        <SubmitButton label="Send Email" busyLabel={busyLabel} disabled={!hydrated} />
      </div>
    </form>
  );
}
