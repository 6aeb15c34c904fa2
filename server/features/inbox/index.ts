// The face of the inbox feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { INBOX_MESSAGES } from './messages.ts';
export { countUnreadInbox, getInboxRow, insertInboxReply, listInboxRowsOf, reopenForUserAnswer, repliesOf } from './queries.ts';
export type { InboxKind, InboxReplyView, InboxRow } from './queries.ts';
export { inboxFeature } from './routes.ts';
