// Named queries for the trial expiry reminders (docs/licensing-reminders.md): which licenses may need one
// now, the claim on a (license, kind) row, and the sent mark written together with its `reminder_sent`
// license event. The scheduler (reminders.ts) decides; these only read and write.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { licenseReminders } from '../../db/schema.ts';
import { recordLicenseEvent } from '../licensing/index.ts';

export type LicenseReminder = typeof licenseReminders.$inferSelect;
export type ReminderKind = LicenseReminder['kind'];

/** In the order a trial reaches them; a later kind is the more relevant one. */
export const REMINDER_KINDS = ['expires_in_7_days', 'expires_in_1_day', 'expired'] as const satisfies readonly ReminderKind[];

export function reminderRank(kind: ReminderKind): number {
  return REMINDER_KINDS.indexOf(kind);
}

export interface ReminderCandidate {
  license_id: number;
  /** Mailed to the owner; never logged. */
  key: string;
  expire_date: string;
  email: string;
  name: string;
  /** The reminder this license is due for at `now`: the latest stage it has reached. */
  kind: ReminderKind;
}

const rankOf = (column: string) => sql.raw(`case ${column} when 'expires_in_7_days' then 0 when 'expires_in_1_day' then 1 when 'expired' then 2 end`);

/**
 * Active, unsuspended trials of users who are not banned whose expiry lies between `expiredSince` and
 * `within7Days`, with the reminder each is due for now, leaving out those whose current reminder is
 * already sent (or given up). Licenses holding a reminder of a later stage than their current one (their
 * expiry was extended since) are included, so the scheduler can start their reminders over. Times are ISO
 * strings: the stored dates are `toISOString()` output, which sorts as it compares.
 */
export function listReminderCandidates(
  db: Db,
  at: { nowIso: string; within1DayIso: string; within7DaysIso: string; expiredSinceIso: string; maxAttempts: number; limit: number },
): ReminderCandidate[] {
  return db.all<ReminderCandidate>(sql`
    with due as (
      select l.id as license_id, l.key as key, l.expire_date as expire_date, u.email as email, u.name as name,
        case when l.expire_date <= ${at.nowIso} then 2 when l.expire_date <= ${at.within1DayIso} then 1 else 0 end as stage
      from licenses l
      join license_types t on t.id = l.license_type_id
      join users u on u.id = l.user_id
      where l.active = 1 and l.suspended = 0 and l.key is not null and l.expire_date is not null
        and l.expire_date <= ${at.within7DaysIso} and l.expire_date > ${at.expiredSinceIso}
        and lower(trim(t.name)) = 'trial' and u.is_banned = 0
    )
    select license_id, key, expire_date, email, name,
      case stage when 0 then 'expires_in_7_days' when 1 then 'expires_in_1_day' else 'expired' end as kind
    from due
    where not exists (
        select 1 from license_reminders r
        where r.license_id = due.license_id and ${rankOf('r.kind')} = due.stage and (r.sent_at is not null or r.attempts >= ${at.maxAttempts})
      )
      or exists (select 1 from license_reminders r where r.license_id = due.license_id and ${rankOf('r.kind')} > due.stage)
    order by expire_date, license_id
    limit ${at.limit}
  `);
}

export function listRemindersOfLicense(db: Db, licenseId: number): LicenseReminder[] {
  return db.select().from(licenseReminders).where(eq(licenseReminders.license_id, licenseId)).all();
}

export function deleteRemindersOfLicense(db: Db, licenseId: number): void {
  db.delete(licenseReminders).where(eq(licenseReminders.license_id, licenseId)).run();
}

/** The first claim: the primary key lets only one insert of (license, kind) ever succeed. */
export function insertReminderClaim(db: Db, row: { license_id: number; kind: ReminderKind; claimedAtIso: string }): boolean {
  const result = db
    .insert(licenseReminders)
    .values({ license_id: row.license_id, kind: row.kind, created_at: row.claimedAtIso, attempts: 1 })
    .onConflictDoNothing()
    .run();
  return result.changes === 1;
}

const unsent = (licenseId: number, kind: ReminderKind) =>
  and(eq(licenseReminders.license_id, licenseId), eq(licenseReminders.kind, kind), isNull(licenseReminders.sent_at));

/** A later claim of an unsent row (a retry): only if nobody changed it since it was read. */
export function reclaimReminder(db: Db, row: Pick<LicenseReminder, 'license_id' | 'kind' | 'attempts'>, claimedAtIso: string): boolean {
  const result = db
    .update(licenseReminders)
    .set({ attempts: row.attempts + 1, created_at: claimedAtIso })
    .where(and(unsent(row.license_id, row.kind), eq(licenseReminders.attempts, row.attempts)))
    .run();
  return result.changes === 1;
}

/** After a failed send: the attempts that count (an outage gives its attempt back). */
export function setReminderAttempts(db: Db, row: Pick<LicenseReminder, 'license_id' | 'kind'>, attempts: number): void {
  db.update(licenseReminders).set({ attempts }).where(unsent(row.license_id, row.kind)).run();
}

/**
 * The mail server accepted the reminder: marks the row sent and records the `reminder_sent` event (actor
 * system). Call inside one write transaction so both or neither are written. False when the row was
 * already sent (or is gone), in which case no event is written.
 */
export function markReminderSent(db: Db, row: { license_id: number; kind: ReminderKind; expire_date: string; sentAtIso: string }): boolean {
  const updated = db.update(licenseReminders).set({ sent_at: row.sentAtIso }).where(unsent(row.license_id, row.kind)).run();
  if (updated.changes !== 1) return false;
  // Never the key (docs/licensing-reminders.md).
  recordLicenseEvent(db, {
    licenseId: row.license_id,
    actorKind: 'system',
    actorUserId: null,
    action: 'reminder_sent',
    detail: { kind: row.kind, expire_date: row.expire_date },
    at: row.sentAtIso,
  });
  return true;
}
