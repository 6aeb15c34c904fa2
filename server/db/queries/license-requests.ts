// License requests as inbox items (docs/product/admin.md#inbox). Shared: the user's Request License opens one, every grant
// closes the user's open ones (syncLicenseFlags), the inbox reads and declines them.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { licenseRequests, users, type LicenseRequest } from '../schema.ts';

export function insertLicenseRequest(db: Db, userId: number, atIso: string): LicenseRequest {
  return db.insert(licenseRequests).values({ user_id: userId, created_at: atIso }).returning().get();
}

export function getLicenseRequest(db: Db, id: number): LicenseRequest | undefined {
  return db.select().from(licenseRequests).where(eq(licenseRequests.id, id)).get();
}

/**
 * Closes the user's open requests with an outcome; how many it closed. A grant made anywhere (the license
 * form, the inbox, an automatic trial) answers the request, so the inbox never shows it as waiting.
 */
export function closeOpenLicenseRequests(
  db: Db,
  userId: number,
  close: { outcome: 'granted' | 'declined'; by: number | null; atIso: string; reason?: string },
): number {
  return db
    .update(licenseRequests)
    .set({
      outcome: close.outcome,
      handled_at: close.atIso,
      handled_by: close.by,
      read_at: sql`coalesce(${licenseRequests.read_at}, ${close.atIso})`,
      ...(close.reason === undefined ? {} : { decline_reason: close.reason }),
    })
    .where(and(eq(licenseRequests.user_id, userId), isNull(licenseRequests.handled_at)))
    .run().changes;
}

/**
 * Gives every user whose request flag is set, and who has no open request item, one (requests made before
 * the inbox existed). Runs at every start, in the caller's transaction; a no-op afterwards. The user's
 * last update is the best guess of when they asked.
 */
export function backfillLicenseRequests(db: Db): number {
  return db.run(sql`
    insert into ${licenseRequests} (user_id, created_at)
    select ${users.id}, ${users.updated_at} from ${users}
    where ${users.license_request} = 1
      and not exists (select 1 from ${licenseRequests} r where r.user_id = ${users.id} and r.handled_at is null)`).changes;
}

/** A user's license requests, oldest first, with how each was answered (their own data export). */
export function listLicenseRequestsOfUser(db: Db, userId: number): Pick<LicenseRequest, 'created_at' | 'handled_at' | 'outcome' | 'decline_reason'>[] {
  return db
    .select({
      created_at: licenseRequests.created_at,
      handled_at: licenseRequests.handled_at,
      outcome: licenseRequests.outcome,
      decline_reason: licenseRequests.decline_reason,
    })
    .from(licenseRequests)
    .where(eq(licenseRequests.user_id, userId))
    .orderBy(asc(licenseRequests.id))
    .all();
}
