// What the shared layers read of passkeys (docs/architecture.md#data): whether a user has one, for "two-factor
// required for admins" (server/auth/two-factor-policy.ts), which a passkey meets too
// (docs/decisions/0043-passkeys.md). Everything else about passkeys is the passkeys feature's own queries.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { passkeys } from '../schema.ts';

/** True when the user has a passkey that is not refused as a suspected clone. */
export function userHasPasskey(db: Db, userId: number): boolean {
  const row = db
    .select({ one: sql<number>`1` })
    .from(passkeys)
    .where(and(eq(passkeys.user_id, userId), isNull(passkeys.suspected_clone_at)))
    .limit(1)
    .get();
  return row !== undefined;
}
