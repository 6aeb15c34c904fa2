// The admin inbox (docs/product/admin.md#inbox): contact messages and license requests read as one list, newest first.
// Two tables, one list: a UNION ALL of both, filtered and paged in SQL. Pages by OFFSET, unlike the users table:
// the inbox holds what visitors wrote by hand (throttled per address), hundreds of items, not 10,000 rows.
import { containsText } from '../../db/contains-text.ts';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contactMessages, inboxReplies, licenseRequests, users, type InboxReply } from '../../db/schema.ts';

export const INBOX_KINDS = ['contact', 'license-request'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];
export type InboxStatus = 'open' | 'handled' | 'all';

export interface InboxRow {
  kind: InboxKind;
  id: number;
  created_at: string;
  /** The visitor's name, or the requesting user's name and surname. */
  name: string;
  email: string;
  /** The contact message; null for a license request. */
  message: string | null;
  /** The requesting user (license requests). */
  user_id: number | null;
  company: string | null;
  read_at: string | null;
  handled_at: string | null;
  handled_by: number | null;
  handled_by_name: string | null;
  outcome: 'granted' | 'declined' | null;
  decline_reason: string | null;
  /** When and by whom a license request was granted or declined; survives Reopen (issue 28, item 3). */
  decided_at: string | null;
  decided_by: number | null;
  decided_by_name: string | null;
  /** The admin answering it (issue 28, item 23). */
  assigned_to: number | null;
  assigned_to_name: string | null;
}

function statusFilter(status: InboxStatus): SQL {
  if (status === 'open') return sql`handled_at is null`;
  if (status === 'handled') return sql`handled_at is not null`;
  return sql`1 = 1`;
}

// Both kinds in the columns of InboxRow. The admin who handled an item is looked up here, so a deleted one reads as null.
const unionOfKinds = sql`
  select 'contact' as kind, m.id as id, m.created_at as created_at, m.name as name, m.email as email, m.message as message,
         null as user_id, null as company, m.read_at as read_at, m.handled_at as handled_at, m.handled_by as handled_by,
         (select a.name from users a where a.id = m.handled_by) as handled_by_name, null as outcome, null as decline_reason,
         null as decided_at, null as decided_by, null as decided_by_name,
         m.assigned_to as assigned_to, (select a.name from users a where a.id = m.assigned_to) as assigned_to_name,
         m.name || ' ' || m.email || ' ' || m.message as haystack
    from contact_messages m
  union all
  select 'license-request', r.id, r.created_at, trim(u.name || ' ' || coalesce(u.surname, '')), u.email, null,
         r.user_id, u.company_name, r.read_at, r.handled_at, r.handled_by,
         (select a.name from users a where a.id = r.handled_by), r.outcome, r.decline_reason,
         -- Rows decided before decided_* existed were never reopened with it: their handled_* still say who decided.
         case when r.outcome is null then null else coalesce(r.decided_at, r.handled_at) end,
         case when r.outcome is null then null else coalesce(r.decided_by, r.handled_by) end,
         case when r.outcome is null then null else (select a.name from users a where a.id = coalesce(r.decided_by, r.handled_by)) end,
         r.assigned_to, (select a.name from users a where a.id = r.assigned_to),
         u.name || ' ' || coalesce(u.surname, '') || ' ' || u.email || ' ' || coalesce(u.company_name, '')
    from license_requests r join users u on u.id = r.user_id`;

const ROW_COLUMNS = sql.raw(
  'kind, id, created_at, name, email, message, user_id, company, read_at, handled_at, handled_by, handled_by_name, outcome, decline_reason, ' +
    'decided_at, decided_by, decided_by_name, assigned_to, assigned_to_name',
);

export interface InboxQuery {
  status: InboxStatus;
  search?: string;
  page: number;
  pageSize: number;
}

export function listInbox(db: Db, query: InboxQuery): { rows: InboxRow[]; total: number } {
  // LIKE ignores ASCII case, like the users table's search.
  const where = query.search ? sql`${statusFilter(query.status)} and ${containsText(sql`haystack`, query.search)}` : statusFilter(query.status);
  const rows = db.all<InboxRow>(sql`
    select ${ROW_COLUMNS} from (${unionOfKinds}) where ${where}
    order by created_at desc, kind, id desc
    limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`);
  const total = db.get<{ total: number }>(sql`select count(*) as total from (${unionOfKinds}) where ${where}`)?.total ?? 0;
  return { rows, total };
}

/**
 * With a search that found nothing under "open" or "handled": how many items of the other status match (issue 28, item 13),
 * so the list can say a handled item matches instead of "nothing matches".
 */
export function countMatchesOutside(db: Db, query: Pick<InboxQuery, 'status' | 'search'>): number {
  if (!query.search || query.status === 'all') return 0;
  const other: InboxStatus = query.status === 'open' ? 'handled' : 'open';
  return (
    db.get<{ total: number }>(
      sql`select count(*) as total from (${unionOfKinds}) where ${statusFilter(other)} and ${containsText(sql`haystack`, query.search)}`,
    )?.total ?? 0
  );
}

/**
 * A user's own items, newest first (issue 28, section 1, the dashboard's Support card): their license requests, and the
 * contact messages sent from their address only when it is verified (`email` null otherwise), like the own-data export.
 */
export function listInboxRowsOf(db: Db, owner: { userId: number; verifiedEmail: string | null }): InboxRow[] {
  const contact = owner.verifiedEmail === null ? sql`0` : sql`(kind = 'contact' and email = ${owner.verifiedEmail} collate nocase)`;
  return db.all<InboxRow>(sql`
    select ${ROW_COLUMNS} from (${unionOfKinds})
    where ${contact} or (kind = 'license-request' and user_id = ${owner.userId})
    order by created_at desc, kind, id desc`);
}

export function getInboxRow(db: Db, kind: InboxKind, id: number): InboxRow | undefined {
  return db.get<InboxRow>(sql`select ${ROW_COLUMNS} from (${unionOfKinds}) where kind = ${kind} and id = ${id}`);
}

/** Items no admin has opened yet: the badge on the nav bar and the admin screen. Two small index-free counts. */
export function countUnreadInbox(db: Db): number {
  const contact =
    db
      .select({ count: sql<number>`count(*)` })
      .from(contactMessages)
      .where(isNull(contactMessages.read_at))
      .get()?.count ?? 0;
  const requests =
    db
      .select({ count: sql<number>`count(*)` })
      .from(licenseRequests)
      .where(isNull(licenseRequests.read_at))
      .get()?.count ?? 0;
  return contact + requests;
}

function tableOf(kind: InboxKind) {
  return kind === 'contact' ? contactMessages : licenseRequests;
}

/** The first opening counts: a later one keeps the time the item was first read. */
export function markInboxRead(db: Db, kind: InboxKind, id: number, atIso: string): void {
  const table = tableOf(kind);
  db.update(table)
    .set({ read_at: atIso })
    .where(and(eq(table.id, id), isNull(table.read_at)))
    .run();
}

/** Handled (read as well), or open again; an item's outcome and reason stay as its history. */
export function setInboxHandled(db: Db, kind: InboxKind, id: number, change: { handled: boolean; by: number; atIso: string }): void {
  const table = tableOf(kind);
  db.update(table)
    .set(
      change.handled
        ? { handled_at: change.atIso, handled_by: change.by, read_at: sql`coalesce(${table.read_at}, ${change.atIso})` }
        : { handled_at: null, handled_by: null },
    )
    .where(eq(table.id, id))
    .run();
}

/** Who answers the item (issue 28, item 23): an admin, or nobody (null). */
export function setInboxAssignee(db: Db, kind: InboxKind, id: number, adminId: number | null): void {
  const table = tableOf(kind);
  db.update(table).set({ assigned_to: adminId }).where(eq(table.id, id)).run();
}

/**
 * The user answered (issue 28, section 1): the item waits for the admins again, unread and open. A license request's
 * decision stays (decided_*), so a granted request that the user writes about is still seen as granted.
 */
export function reopenForUserAnswer(db: Db, kind: InboxKind, id: number): void {
  const table = tableOf(kind);
  db.update(table).set({ read_at: null, handled_at: null, handled_by: null }).where(eq(table.id, id)).run();
}

export function insertInboxReply(
  db: Db,
  kind: InboxKind,
  id: number,
  reply: { subject: string; message: string; by: number; atIso: string; author?: 'admin' | 'user' },
): InboxReply {
  return db
    .insert(inboxReplies)
    .values({
      contact_message_id: kind === 'contact' ? id : null,
      license_request_id: kind === 'license-request' ? id : null,
      subject: reply.subject,
      message: reply.message,
      sent_by: reply.by,
      author: reply.author ?? 'admin',
      created_at: reply.atIso,
    })
    .returning()
    .get();
}

export interface InboxReplyView {
  id: number;
  subject: string;
  message: string;
  created_at: string;
  sent_by: { id: number; name: string } | null;
  /** 'admin': a reply mailed from the inbox; 'user': the user's answer from the dashboard. */
  author: 'admin' | 'user';
}

/** The replies of the listed items, oldest first, keyed `${kind}:${id}`: one query per kind whatever the page size. */
export function repliesOf(db: Db, rows: readonly Pick<InboxRow, 'kind' | 'id'>[]): Map<string, InboxReplyView[]> {
  const byKey = new Map<string, InboxReplyView[]>();
  for (const kind of INBOX_KINDS) {
    const ids = rows.filter((row) => row.kind === kind).map((row) => row.id);
    if (ids.length === 0) continue;
    const column = kind === 'contact' ? inboxReplies.contact_message_id : inboxReplies.license_request_id;
    const found = db
      .select({ reply: inboxReplies, name: users.name })
      .from(inboxReplies)
      .leftJoin(users, eq(users.id, inboxReplies.sent_by))
      .where(inArray(column, ids))
      .orderBy(inboxReplies.created_at, inboxReplies.id)
      .all();
    for (const { reply, name } of found) {
      const key = `${kind}:${kind === 'contact' ? reply.contact_message_id : reply.license_request_id}`;
      const view: InboxReplyView = {
        id: reply.id,
        subject: reply.subject,
        message: reply.message,
        created_at: reply.created_at,
        sent_by: reply.sent_by !== null && name !== null ? { id: reply.sent_by, name } : null,
        author: reply.author,
      };
      const list = byKey.get(key);
      if (list) list.push(view);
      else byKey.set(key, [view]);
    }
  }
  return byKey;
}
