// What a user sees of their own inbox items on the dashboard's Support card (issue 28, section 1): their words, the admins'
// replies and their own answers, and where the item stands. Not the admins' bookkeeping (who handled, who is assigned, read
// state, the sender's IP): those are the admins' (docs/decisions/0046-support-and-legal-pages.md).
import type { InboxReplyView, InboxRow } from '../inbox/index.ts';

/**
 * Where an item stands for its sender: a license request by its decision; a contact message is 'answered' while the last word is
 * the admins', 'closed' once handled, else 'open' (waiting for the admins).
 */
export type SupportStatus = 'open' | 'answered' | 'closed' | 'granted' | 'declined';

export function supportStatusOf(row: InboxRow, replies: readonly InboxReplyView[]): SupportStatus {
  if (row.outcome !== null) return row.outcome;
  if (row.handled_at !== null) return 'closed';
  return replies.at(-1)?.author === 'admin' ? 'answered' : 'open';
}

export function presentSupportItem(row: InboxRow, replies: readonly InboxReplyView[]) {
  return {
    kind: row.kind,
    id: row.id,
    created_at: row.created_at,
    /** The contact message as sent; null for a license request. */
    message: row.message,
    status: supportStatusOf(row, replies),
    decline_reason: row.outcome === 'declined' ? row.decline_reason : null,
    conversation: replies.map((reply) => ({
      id: reply.id,
      from: reply.author === 'user' ? ('you' as const) : ('support' as const),
      subject: reply.subject,
      message: reply.message,
      created_at: reply.created_at,
    })),
  };
}

export type SupportItem = ReturnType<typeof presentSupportItem>;
