// The inbox item every inbox answer carries (docs/admin-api.md#the-inbox-item-inboxitem).
import type { InboxReplyView, InboxRow } from './queries.ts';

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
    handled_by: row.handled_by !== null && row.handled_by_name !== null ? { id: row.handled_by, name: row.handled_by_name } : null,
    outcome: row.outcome,
    decline_reason: row.decline_reason,
    replies: [...replies],
  };
}

export type InboxItem = ReturnType<typeof presentInboxItem>;
