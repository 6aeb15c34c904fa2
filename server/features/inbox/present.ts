// The inbox item every inbox answer carries (docs/admin-api.md#the-inbox-item-inboxitem).
import type { InboxReplyView, InboxRow } from './queries.ts';

const person = (id: number | null, name: string | null) => (id !== null && name !== null ? { id, name } : null);

/** How many words of the visitor's message name the conversation in a reply's subject. */
const SUBJECT_WORDS = 8;
const SUBJECT_MAX = 60;

/**
 * The subject a reply starts with (issue 28, item 4): "Re: " and the visitor's first words, as a mail client answers a mail,
 * instead of a generic "Re: your message". The contact form has no subject line, so its first words stand for one.
 */
export function replySubjectOf(row: Pick<InboxRow, 'kind' | 'message'>): string {
  if (row.kind === 'license-request' || row.message === null) return 'Re: License request';
  const words = row.message.replace(/\s+/g, ' ').trim().split(' ');
  let first = words.slice(0, SUBJECT_WORDS).join(' ');
  if (first.length > SUBJECT_MAX) first = first.slice(0, SUBJECT_MAX - 1).trimEnd();
  return `Re: ${first}${first.length < words.join(' ').length ? '…' : ''}`;
}

export function presentInboxItem(row: InboxRow, replies: readonly InboxReplyView[]) {
  return {
    kind: row.kind,
    id: row.id,
    created_at: row.created_at,
    name: row.name,
    email: row.email,
    message: row.message,
    user_id: row.user_id,
    company: row.company,
    read_at: row.read_at,
    handled_at: row.handled_at,
    handled_by: person(row.handled_by, row.handled_by_name),
    outcome: row.outcome,
    decline_reason: row.decline_reason,
    /** Who granted or declined a license request and when; stays after Reopen (issue 28, item 3). */
    decided_at: row.decided_at,
    decided_by: person(row.decided_by, row.decided_by_name),
    /** The admin answering it, shown to the others (issue 28, item 23). */
    assigned_to: person(row.assigned_to, row.assigned_to_name),
    reply_subject: replySubjectOf(row),
    replies: [...replies],
  };
}

export type InboxItem = ReturnType<typeof presentInboxItem>;
