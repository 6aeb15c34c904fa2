// Named queries of sign-in (docs/product/accounts.md#two-factor-sign-in): the pending logins between the
// password step and the second factor, bound to one browser and stored as the SHA-256 of their token.
import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { twoFactorPendingLogins, type TwoFactorPendingLogin } from '../../db/schema.ts';

export function insertPendingLogin(db: Db, pending: { id: string; user_id: number; persistent: boolean; expires_at: number }, now: number): void {
  // Housekeeping: the user's expired pending logins are dead weight (the user index keeps it cheap).
  db.delete(twoFactorPendingLogins)
    .where(and(eq(twoFactorPendingLogins.user_id, pending.user_id), lte(twoFactorPendingLogins.expires_at, now)))
    .run();
  db.insert(twoFactorPendingLogins)
    .values({ ...pending, persistent: pending.persistent ? 1 : 0 })
    .run();
}

export function getPendingLogin(db: Db, id: string): TwoFactorPendingLogin | undefined {
  return db.select().from(twoFactorPendingLogins).where(eq(twoFactorPendingLogins.id, id)).get();
}

export function deletePendingLogin(db: Db, id: string): void {
  db.delete(twoFactorPendingLogins).where(eq(twoFactorPendingLogins.id, id)).run();
}
