// The dashboard's "Support" card (issue 28, section 1; docs/decisions/0046-support-and-legal-pages.md): the user's own contact
// messages (those sent before signing up from the same verified address too) and license requests, with our replies and
// where each stands, and an Answer form that adds to the same inbox item for the admins.
import { useEffect, useRef, useState } from 'react';
import { answerSupportItem, listSupport, type SupportItem } from '../../lib/api/support.ts';
import { formatDate } from '../../lib/format.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';

const KIND = { contact: 'Message', 'license-request': 'License request' } as const;
const STATUS: Record<SupportItem['status'], string> = {
  open: 'Waiting for our answer',
  answered: 'Answered',
  closed: 'Closed',
  granted: 'Trial granted',
  declined: 'Declined',
};

const keyOf = (item: Pick<SupportItem, 'kind' | 'id'>) => `${item.kind}:${item.id}`;

function AnswerForm({ item, onDone, onCancel }: { item: SupportItem; onDone: (item: SupportItem, message: string) => void; onCancel: () => void }) {
  const [message, setMessage] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['message'], busyLabel: 'Sending…' });
  const submit = form.onSubmit(async () => {
    const answer = await answerSupportItem(item, message);
    onDone(answer.item, answer.message);
  });
  return (
    <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
      <p className="admin-form-lead">Your answer is added to this conversation, and we are told by e-mail.</p>
      <Field label="Your answer" name="message" value={message} onChange={setMessage} error={form.errors.message} multiline autoFocusOnOpen />
      <Message message={form.message} />
      <FormActions label="Send Answer" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

function SupportEntry({ item, onAnswer }: { item: SupportItem; onAnswer: (item: SupportItem) => void }) {
  const title = `${KIND[item.kind]} of ${formatDate(item.created_at)}`;
  return (
    <li className="support__item" data-support-item={keyOf(item)}>
      <h3 className="support__title">
        {title} <span className={`support__status support__status--${item.status}`}>{STATUS[item.status]}</span>
      </h3>
      <p className="support__text">{item.message ?? 'You asked for a free trial license.'}</p>
      {item.decline_reason && <p className="support__text">Reason: {item.decline_reason}</p>}
      {item.conversation.length > 0 && (
        <ol className="support__conversation" aria-label={`Conversation about the ${title.toLowerCase()}`}>
          {item.conversation.map((entry) => (
            <li key={entry.id} className={`support__entry support__entry--${entry.from}`}>
              <p className="support__meta">
                <strong>{entry.from === 'you' ? 'You' : 'Support'}</strong>, <time dateTime={entry.created_at}>{formatDate(entry.created_at, true)}</time>
              </p>
              <p className="support__text">{entry.message}</p>
            </li>
          ))}
        </ol>
      )}
      <p className="dashboard__actions">
        <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => onAnswer(item)}>
          Answer<span className="sr-only"> about the {title.toLowerCase()}</span>
        </button>
      </p>
    </li>
  );
}

export function SupportCard() {
  const [items, setItems] = useState<SupportItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [answering, setAnswering] = useState<SupportItem | null>(null);
  const [notice, setNotice] = useState<FormMessage | null>(null);

  useEffect(() => {
    listSupport().then(
      (answer) => setItems(answer.items),
      (error: unknown) => {
        console.error('Could not load the support history', error);
        setFailed(true);
      },
    );
  }, []);

  const done = (item: SupportItem, message: string) => {
    setItems((current) => current?.map((candidate) => (keyOf(candidate) === keyOf(item) ? item : candidate)) ?? null);
    setAnswering(null);
    setNotice({ text: message, tone: 'success' });
  };

  return (
    <section className="card support" aria-labelledby="support-heading">
      <h2 className="card__title" id="support-heading">
        Support
      </h2>
      <Message message={notice} />
      {failed && <p className="form-message__text form-message__text--error">Your messages could not be loaded. Please reload the page.</p>}
      {items === null && !failed && <p className="empty-note">Loading your messages…</p>}
      {items?.length === 0 && (
        <p className="empty-note">
          You have not written to us yet. Questions? Use the <a href="/contact">Contact Us</a> page.
        </p>
      )}
      {items && items.length > 0 && (
        <ul className="support__list">
          {items.map((item) => (
            <SupportEntry key={keyOf(item)} item={item} onAnswer={setAnswering} />
          ))}
        </ul>
      )}
      <Dialog title="Answer" open={answering !== null} onClose={() => setAnswering(null)}>
        {answering && <AnswerForm item={answering} onDone={done} onCancel={() => setAnswering(null)} />}
      </Dialog>
    </section>
  );
}
