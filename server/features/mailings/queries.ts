// Named queries for mailings and their per-recipient queue rows (issue 7, item 4). The queue lives in
// the database so that a restart or a mail-server outage loses nothing; see server/features/mailings/job.ts
// for how rows move between pending, sent, failed and skipped.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import { constantLiteral, equalsConstant } from '../../db/rows-by-index.ts';
import { mailingRecipients, mailings, users } from '../../db/schema.ts';

export type Mailing = typeof mailings.$inferSelect;
export type MailingRecipient = typeof mailingRecipients.$inferSelect;
export type RecipientStatus = MailingRecipient['status'];
export type RecipientKey = Pick<MailingRecipient, 'mailing_id' | 'user_id'>;

export const RECIPIENT_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const satisfies readonly RecipientStatus[];

/** Recipients still to be sent, due or waiting for a retry (the metric site_mail_queue_depth; uses the status index). */
export function countPendingRecipients(db: Db): number {
  return (
    db
      .select({ count: sql<number>`count(*)` })
      .from(mailingRecipients)
      .where(eq(mailingRecipients.status, 'pending'))
      .get()?.count ?? 0
  );
}

export function insertMailing(db: Db, mailing: { title: string; body: string; created_by: number | null; atIso: string }): Mailing {
  const { atIso, ...fields } = mailing;
  return db
    .insert(mailings)
    .values({ ...fields, created_at: atIso, updated_at: atIso })
    .returning()
    .get();
}

/** One pending row per recipient, due at once. Chunked: SQLite limits the parameters of one statement. */
export function insertRecipients(db: Db, mailingId: number, recipients: ReadonlyArray<{ user_id: number; email: string }>, dueAt: number): void {
  const CHUNK = 1000;
  for (let start = 0; start < recipients.length; start += CHUNK) {
    const rows = recipients
      .slice(start, start + CHUNK)
      .map((recipient) => ({ mailing_id: mailingId, ...recipient, status: 'pending' as const, next_attempt_at: dueAt }));
    db.insert(mailingRecipients).values(rows).onConflictDoNothing().run();
  }
}

/**
 * Claims up to `limit` due rows by pushing their next_attempt_at to `leaseUntil`, in one statement (so
 * atomic, and two workers can never claim the same row). The claim is in the database, not in memory: if
 * the process dies holding it, the rows become due again when the lease runs out.
 */
export function claimDueRecipients(db: Db, options: { now: number; limit: number; leaseUntil: number }): MailingRecipient[] {
  return preparedFor(db, `mailing-claim:${options.limit}`, (connection) => claimStatement(connection, options.limit))
    .all({ now: options.now, leaseUntil: options.leaseUntil })
    .sort((a, b) => a.mailing_id - b.mailing_id || a.user_id - b.user_id);
}

/**
 * The claim, built once per connection and batch size (run once per batch; building it cost more than running
 * it). The status and the batch size are in the SQL text, not bound: SQLite would otherwise plan the ordered,
 * limited claim again on every run (server/db/rows-by-index.ts).
 */
const claimStatement = (db: Db, limit: number) => {
  const due = sql`select rowid from ${mailingRecipients}
    where ${equalsConstant(mailingRecipients.status, 'pending')} and ${mailingRecipients.next_attempt_at} <= ${sql.placeholder('now')}
    order by ${mailingRecipients.next_attempt_at} asc, ${mailingRecipients.mailing_id} asc, ${mailingRecipients.user_id} asc
    limit ${sql.raw(constantLiteral(limit))}`;
  return db
    .update(mailingRecipients)
    .set({ next_attempt_at: sql`${sql.placeholder('leaseUntil')}` })
    .where(sql`rowid in (${due})`)
    .returning()
    .prepare();
};

function byKey(key: RecipientKey) {
  return and(eq(mailingRecipients.mailing_id, key.mailing_id), eq(mailingRecipients.user_id, key.user_id), eq(mailingRecipients.status, 'pending'));
}

/** The pending row of a recipient, by placeholders: for the statements prepared once (one write per message). */
const pendingRowOf = and(
  eq(mailingRecipients.mailing_id, sql.placeholder('mailing_id')),
  eq(mailingRecipients.user_id, sql.placeholder('user_id')),
  eq(mailingRecipients.status, 'pending'),
);

// Building a Drizzle update and preparing its SQL cost more than running it (a profile of the mailing worker,
// issue 31 item 5): the writes made once per message are built once per connection (server/db/prepared.ts).
const markSentStatement = (db: Db) =>
  db
    .update(mailingRecipients)
    .set({ status: 'sent', sent_at: sql`${sql.placeholder('at')}`, last_error: null })
    .where(pendingRowOf)
    .prepare();

const markSkippedStatement = (db: Db) =>
  db
    .update(mailingRecipients)
    .set({ status: 'skipped', last_error: sql`${sql.placeholder('reason')}` })
    .where(pendingRowOf)
    .prepare();

/** Its own write, right after the mail server accepted the message: a sent row is never claimed again. */
export function markRecipientSent(db: Db, key: RecipientKey, atIso: string): void {
  preparedFor(db, markSentStatement, markSentStatement).run({ mailing_id: key.mailing_id, user_id: key.user_id, at: atIso });
}

export function markRecipientSkipped(db: Db, key: RecipientKey, reason: string): void {
  preparedFor(db, markSkippedStatement, markSkippedStatement).run({ mailing_id: key.mailing_id, user_id: key.user_id, reason });
}

/** A failed delivery the mail server answered: counts as an attempt; retried later, or failed for good. */
export function recordRecipientFailure(db: Db, key: RecipientKey, outcome: { attempts: number; error: string; retryAt: number | null }): void {
  db.update(mailingRecipients)
    .set({
      attempts: outcome.attempts,
      last_error: outcome.error,
      ...(outcome.retryAt === null ? { status: 'failed' as const } : { next_attempt_at: outcome.retryAt }),
    })
    .where(byKey(key))
    .run();
}

/** Gives claimed rows back without counting an attempt (the mail server was unreachable, or shutdown). */
export function releaseRecipients(db: Db, keys: readonly RecipientKey[], options: { retryAt: number; error?: string }): void {
  for (const key of keys) {
    db.update(mailingRecipients)
      .set({ next_attempt_at: options.retryAt, ...(options.error === undefined ? {} : { last_error: options.error }) })
      .where(byKey(key))
      .run();
  }
}

export function getMailing(db: Db, id: number): Mailing | undefined {
  return db.select().from(mailings).where(eq(mailings.id, id)).get();
}

/** Mailings by id, for the worker composing messages (one query per batch). */
export function getMailingsByIds(db: Db, ids: readonly number[]): Mailing[] {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mailings)
    .where(sql`${mailings.id} in (select value from json_each(${JSON.stringify(ids)}))`)
    .all();
}

export interface RecipientCounts {
  pending: number;
  sent: number;
  failed: number;
  skipped: number;
  total: number;
}

export interface MailingSummary {
  id: number;
  title: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  counts: RecipientCounts;
}

const countsColumns = {
  pending: sql<number>`coalesce(sum(${mailingRecipients.status} = 'pending'), 0)`,
  sent: sql<number>`coalesce(sum(${mailingRecipients.status} = 'sent'), 0)`,
  failed: sql<number>`coalesce(sum(${mailingRecipients.status} = 'failed'), 0)`,
  skipped: sql<number>`coalesce(sum(${mailingRecipients.status} = 'skipped'), 0)`,
  total: sql<number>`count(${mailingRecipients.user_id})`,
};

/** The newest mailings with their progress, in one grouped query. */
export function listMailingSummaries(db: Db, options: { limit: number; id?: number }): MailingSummary[] {
  return db
    .select({ id: mailings.id, title: mailings.title, created_at: mailings.created_at, creatorId: users.id, creatorName: users.name, ...countsColumns })
    .from(mailings)
    .leftJoin(mailingRecipients, eq(mailingRecipients.mailing_id, mailings.id))
    .leftJoin(users, eq(users.id, mailings.created_by))
    .where(options.id === undefined ? undefined : eq(mailings.id, options.id))
    .groupBy(mailings.id)
    .orderBy(desc(mailings.id))
    .limit(options.limit)
    .all()
    .map(({ creatorId, creatorName, pending, sent, failed, skipped, total, ...mailing }) => ({
      ...mailing,
      created_by: creatorId === null || creatorName === null ? null : { id: creatorId, name: creatorName },
      counts: { pending, sent, failed, skipped, total },
    }));
}

export interface RecipientProblem {
  mailing_id: number;
  user_id: number;
  email: string;
  status: RecipientStatus;
  attempts: number;
  last_error: string;
  next_attempt_at: number;
}

/**
 * Up to `perMailing` rows with an error for each of the given mailings: failed for good, or still being
 * retried (pending with last_error). Newest retry time first.
 */
export function listRecentProblems(db: Db, mailingIds: readonly number[], perMailing: number): RecipientProblem[] {
  if (mailingIds.length === 0) return [];
  return db.all<RecipientProblem>(sql`
    select mailing_id, user_id, email, status, attempts, last_error, next_attempt_at from (
      select r.*, row_number() over (partition by r.mailing_id order by r.next_attempt_at desc, r.user_id) as position
      from ${mailingRecipients} r
      where r.last_error is not null and r.status in ('pending', 'failed')
        and r.mailing_id in (select value from json_each(${JSON.stringify(mailingIds)}))
    ) where position <= ${perMailing}
    order by mailing_id desc, next_attempt_at desc, user_id`);
}

export type RecipientRow = MailingRecipient & { name: string | null };

export function listRecipientsOfMailing(db: Db, mailingId: number, status?: RecipientStatus): RecipientRow[] {
  return db
    .select({ recipient: mailingRecipients, name: users.name })
    .from(mailingRecipients)
    .leftJoin(users, eq(users.id, mailingRecipients.user_id))
    .where(and(eq(mailingRecipients.mailing_id, mailingId), status === undefined ? undefined : eq(mailingRecipients.status, status)))
    .orderBy(asc(mailingRecipients.user_id))
    .all()
    .map(({ recipient, name }) => ({ ...recipient, name }));
}
