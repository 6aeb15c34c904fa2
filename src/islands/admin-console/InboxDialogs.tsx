// The inbox's three forms (docs/product/admin.md#inbox), each in the islands' Dialog and submitted through the one form hook:
// Reply (a mail to the visitor or the user, recorded with the item), Grant trial (the days) and Decline (the reason mailed).
// On success the dialog closes and the panel announces the server's message; errors stay in the form under their fields.
import { useRef, useState } from 'react';
import type { AdminUser, License } from '../../lib/api/admin.ts';
import { declineLicenseRequest, grantLicenseRequest, replyToInboxItem, type InboxItem } from '../../lib/api/inbox.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { Message } from '../ui/Message.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';

export type InboxAction = 'reply' | 'grant' | 'decline';

/** What a finished action hands back to the panel. */
export interface InboxDone {
  item: InboxItem;
  unread: number;
  message: string;
  /** A grant's or decline's changed user, and a grant's new license, for the users table on the same screen. */
  user?: AdminUser | null;
  license?: License;
}

interface FormProps {
  item: InboxItem;
  onDone: (done: InboxDone) => void;
  onCancel: () => void;
}

/** The days the Grant trial form starts with: the trial length of the license form and of automatic trials. */
const TRIAL_DAYS = '30';

function ReplyForm({ item, onDone, onCancel }: FormProps) {
  const [subject, setSubject] = useState(item.reply_subject);
  const [message, setMessage] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['subject', 'message'], busyLabel: 'Sending…' });
  const submit = form.onSubmit(async () => {
    const answer = await replyToInboxItem(item, { subject, message });
    onDone({ item: answer.item, unread: answer.unread, message: answer.message });
  });
  return (
    <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
      <p className="admin-form-lead">
        To {item.name} &lt;{item.email}&gt;, from the site's address; replies to it come to you.
      </p>
      <Field label="Subject" name="subject" value={subject} onChange={setSubject} error={form.errors.subject} />
      <Field label="Message" name="message" value={message} onChange={setMessage} error={form.errors.message} multiline autoFocusOnOpen />
      <Message message={form.message} />
      <FormActions label="Send Reply" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

function GrantForm({ item, onDone, onCancel }: FormProps) {
  const [days, setDays] = useState(TRIAL_DAYS);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['days'], busyLabel: 'Granting…' });
  const submit = form.onSubmit(async () => {
    const answer = await grantLicenseRequest(item.id, days.trim());
    onDone({ item: answer.item, unread: answer.unread, message: answer.message, user: answer.user, license: answer.license });
  });
  return (
    <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
      <p className="admin-form-lead">
        A trial license for {item.name} &lt;{item.email}&gt;, active at once; the key is e-mailed to them.
      </p>
      <Field label="Days" name="days" value={days} onChange={setDays} error={form.errors.days} inputMode="numeric" autoFocusOnOpen hint="Counted from now." />
      <Message message={form.message} />
      <FormActions label="Grant Trial" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

function DeclineForm({ item, onDone, onCancel }: FormProps) {
  const [reason, setReason] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['reason'], busyLabel: 'Declining…' });
  const submit = form.onSubmit(async () => {
    const answer = await declineLicenseRequest(item.id, reason);
    onDone({ item: answer.item, unread: answer.unread, message: answer.message, user: answer.user });
  });
  return (
    <form ref={formRef} className="form" noValidate onSubmit={submit} aria-busy={form.busy}>
      <p className="admin-form-lead">
        The reason is e-mailed to {item.name} &lt;{item.email}&gt;; they may ask again from their dashboard.
      </p>
      <Field label="Reason" name="reason" value={reason} onChange={setReason} error={form.errors.reason} multiline autoFocusOnOpen />
      <Message message={form.message} />
      <FormActions label="Decline Request" busyLabel={form.busyLabel} onCancel={onCancel} />
    </form>
  );
}

const TITLES: Record<InboxAction, string> = { reply: 'Reply', grant: 'Grant Trial License', decline: 'Decline License Request' };

export function InboxActionDialog({
  action,
  item,
  onDone,
  onClose,
}: {
  action: InboxAction | null;
  item: InboxItem | null;
  onDone: (done: InboxDone) => void;
  onClose: () => void;
}) {
  const open = action !== null && item !== null;
  return (
    <Dialog title={action ? TITLES[action] : ''} open={open} onClose={onClose}>
      {open && action === 'reply' && <ReplyForm item={item} onDone={onDone} onCancel={onClose} />}
      {open && action === 'grant' && <GrantForm item={item} onDone={onDone} onCancel={onClose} />}
      {open && action === 'decline' && <DeclineForm item={item} onDone={onDone} onCancel={onClose} />}
    </Dialog>
  );
}
