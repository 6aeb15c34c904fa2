// 'Send Mail' → 'Send Mailing' (docs/product/admin.md#admin-screen; issue 7, item 4): the title, the markdown body with its
// preview, and the recipients: the users ticked in the table, or all verified users. Errors come back for
// title, body and users (docs/product/messages.md#validation). The server only queues the mailing; once it has, the dialog follows
// the mailing's progress as the worker sends it. The original's stray 'TEST' text shown while the
// send-mail flag was set (docs/product/admin.md#mailings) was a leftover bug and is deliberately not reproduced.
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { ALL_VERIFIED, sendMailing } from '../../lib/api/admin.ts';
import { mailingsStore } from './admin-stores.ts';
import { MailingProgress } from './MailingProgress.tsx';
import { MarkdownPreview } from './MarkdownPreview.tsx';

type Recipients = 'selected' | 'all';

interface Queued {
  id: number;
  title: string;
  message: string;
  skipped: { unsubscribed: number; banned: number };
}

function QueuedMailing({ queued, onClose }: { queued: Queued; onClose: () => void }) {
  const { value } = useStore(mailingsStore.$store);
  const mailing = value?.find((item) => item.id === queued.id);
  const skipped = queued.skipped.unsubscribed + queued.skipped.banned;
  const messageRef = useRef<HTMLParagraphElement>(null);
  // The form and its focused Send button are gone: focus the outcome, so it is read and Tab goes on from it.
  useEffect(() => messageRef.current?.focus(), []);
  return (
    <div className="admin-mailing-queued">
      <p ref={messageRef} tabIndex={-1} className="form-message__text form-message__text--success" role="status">
        {queued.message}
      </p>
      {skipped > 0 && (
        <p>
          Not sent to {queued.skipped.unsubscribed} unsubscribed and {queued.skipped.banned} banned {skipped === 1 ? 'user' : 'users'}.
        </p>
      )}
      <h3 className="admin-mailing-queued__title">{queued.title}</h3>
      {mailing ? (
        <MailingProgress counts={mailing.counts} label={`Progress of the mailing ${queued.title}`} />
      ) : (
        <p className="empty-note">Waiting for the first progress report…</p>
      )}
      <p className="field__hint">The mailing is sent in the background; you can close this window. The Mailings list shows its progress too.</p>
      <div className="form__actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

const FIELDS = ['users', 'title', 'body'] as const;

interface RecipientsFieldProps {
  recipients: Recipients;
  onChange: (recipients: Recipients) => void;
  /** How many users are ticked in the table. */
  count: number;
  error: string | undefined;
}

function RecipientsField({ recipients, onChange, count, error }: RecipientsFieldProps) {
  const id = useId();
  return (
    <fieldset className={error ? 'admin-recipients field--invalid' : 'admin-recipients'} aria-describedby={error ? `${id}-users-error` : undefined}>
      <legend className="field__label">Recipients</legend>
      <div className="field field--checkbox">
        <input
          id={`${id}-selected`}
          type="radio"
          name="recipients"
          value="selected"
          checked={recipients === 'selected'}
          onChange={() => onChange('selected')}
          disabled={count === 0}
        />
        <label htmlFor={`${id}-selected`}>
          The users ticked in the table ({count} {count === 1 ? 'user' : 'users'})
        </label>
      </div>
      <div className="field field--checkbox">
        <input id={`${id}-all`} type="radio" name="recipients" value="all" checked={recipients === 'all'} onChange={() => onChange('all')} />
        <label htmlFor={`${id}-all`}>All verified users</label>
      </div>
      <p className="field__hint">
        {count === 0 ? 'Tick users in the table to mail only them. ' : ''}Banned and unsubscribed users are never mailed, even when ticked.
      </p>
      {error && (
        <p className="field__error" id={`${id}-users-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

function MailingBody({ body, onChange, error }: { body: string; onChange: (body: string) => void; error: string | undefined }) {
  const id = useId();
  return (
    <div className="admin-mailing-editor">
      <Field label="Body (markdown)" name="body" value={body} onChange={onChange} error={error} multiline />
      <section className="admin-markdown-preview" aria-labelledby={`${id}-preview`}>
        <h3 className="field__label admin-markdown-preview__title" id={`${id}-preview`}>
          Preview
        </h3>
        <p className="field__hint">Images from other sites are left out of mailings: they would tell those sites who opened the mail.</p>
        <MarkdownPreview markdown={body} />
      </section>
    </div>
  );
}

interface MailingFormProps {
  selectedIds: readonly number[];
  onQueued: (queued: Queued) => void;
  onCancel: () => void;
}

function MailingForm({ selectedIds, onQueued, onCancel }: MailingFormProps) {
  const [recipients, setRecipients] = useState<Recipients>(selectedIds.length > 0 ? 'selected' : 'all');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const count = selectedIds.length;
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, {
    fields: FIELDS,
    busyLabel: 'Queueing…',
    // The recipients' radios carry no aria-invalid; their error is read with the group, from the chosen one.
    focusFallback: () => (form.errors.users ? formRef.current?.querySelector<HTMLElement>('input[name="recipients"]:checked') : null),
  });

  const send = form.onSubmit(async () => {
    const answer = await sendMailing({ users: recipients === 'all' ? ALL_VERIFIED : [...selectedIds], title, body });
    const others = (mailingsStore.$store.get().value ?? []).filter((item) => item.id !== answer.mailing.id);
    // Straight into the shared list: the mailings panel shows it at once and polling starts.
    mailingsStore.accept([answer.mailing, ...others]);
    onQueued({ id: answer.mailing.id, title: answer.mailing.title, message: answer.message, skipped: answer.skipped });
  });

  return (
    <form ref={formRef} className="form" noValidate onSubmit={send} aria-busy={form.busy}>
      <RecipientsField recipients={recipients} onChange={setRecipients} count={count} error={form.errors.users} />
      <Field
        label="Title"
        name="title"
        value={title}
        onChange={setTitle}
        error={form.errors.title}
        autoComplete="off"
        autoFocusOnOpen
        hint="The e-mail's subject."
      />
      <MailingBody body={body} onChange={setBody} error={form.errors.body} />
      <Message message={form.message} />
      <FormActions
        label={recipients === 'all' ? 'Send to all verified users' : `Send to ${count} ${count === 1 ? 'user' : 'users'}`}
        busyLabel={form.busyLabel}
        onCancel={onCancel}
      />
    </form>
  );
}

interface SendMailingDialogProps {
  open: boolean;
  selectedIds: readonly number[];
  onClose: () => void;
}

export function SendMailingDialog({ open, selectedIds, onClose }: SendMailingDialogProps) {
  const [queued, setQueued] = useState<Queued | null>(null);
  const close = () => {
    setQueued(null);
    onClose();
  };
  return (
    <Dialog title="Send Mailing" open={open} onClose={close} size="wide">
      {open && (queued ? <QueuedMailing queued={queued} onClose={close} /> : <MailingForm selectedIds={selectedIds} onQueued={setQueued} onCancel={close} />)}
    </Dialog>
  );
}
