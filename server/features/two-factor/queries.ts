// Named queries for two-factor sign-in (docs/product/accounts.md#two-factor-sign-in): the encrypted secret and
// its last used step, the hashed recovery codes, and the pending logins between the password and the code.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { twoFactorCredentials, twoFactorPendingLogins, twoFactorRecoveryCodes, users, type TwoFactorCredential, type User } from '../../db/schema.ts';

export function getTwoFactorCredential(db: Db, userId: number): TwoFactorCredential | undefined {
  return db.select().from(twoFactorCredentials).where(eq(twoFactorCredentials.user_id, userId)).get();
}

/** A new setup: the pending secret replaces any earlier pending one; an active secret stays as it is. */
export function savePendingSecret(db: Db, userId: number, encrypted: string, atIso: string): void {
  db.insert(twoFactorCredentials)
    .values({ user_id: userId, pending_secret: encrypted, created_at: atIso, updated_at: atIso })
    .onConflictDoUpdate({ target: twoFactorCredentials.user_id, set: { pending_secret: encrypted, updated_at: atIso } })
    .run();
}

/** Makes the pending secret the active one and turns two-factor on for the user (inside a transaction). */
export function activateTwoFactor(db: Db, userId: number, input: { secret: string; step: number; atIso: string }): User | undefined {
  db.update(twoFactorCredentials)
    .set({ secret: input.secret, pending_secret: null, last_used_step: input.step, updated_at: input.atIso })
    .where(eq(twoFactorCredentials.user_id, userId))
    .run();
  return db.update(users).set({ two_factor_enabled_at: input.atIso, updated_at: input.atIso }).where(eq(users.id, userId)).returning().get();
}

/** Turns two-factor off: secret, recovery codes and pending logins go (inside a transaction). */
export function deactivateTwoFactor(db: Db, userId: number, atIso: string): void {
  db.delete(twoFactorCredentials).where(eq(twoFactorCredentials.user_id, userId)).run();
  db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, userId)).run();
  db.delete(twoFactorPendingLogins).where(eq(twoFactorPendingLogins.user_id, userId)).run();
  db.update(users).set({ two_factor_enabled_at: null, updated_at: atIso }).where(eq(users.id, userId)).run();
}

/**
 * Records `step` as used, only if it is later than the last used one: one statement, so two requests
 * with the same code cannot both pass. False: the code (or an earlier one) was already used.
 */
export function claimTotpStep(db: Db, userId: number, step: number): boolean {
  return (
    db
      .update(twoFactorCredentials)
      .set({ last_used_step: step })
      .where(and(eq(twoFactorCredentials.user_id, userId), or(isNull(twoFactorCredentials.last_used_step), lt(twoFactorCredentials.last_used_step, step))))
      .run().changes === 1
  );
}

/** Replaces every recovery code of the user with these hashes (inside a transaction). */
export function replaceRecoveryCodes(db: Db, userId: number, hashes: readonly string[], atIso: string): void {
  db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, userId)).run();
  db.insert(twoFactorRecoveryCodes)
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: atIso })))
    .run();
}

/** Spends an unused code with this hash; false when there is none (wrong, or used already). */
export function spendRecoveryCode(db: Db, userId: number, hash: string, atIso: string): boolean {
  return (
    db
      .update(twoFactorRecoveryCodes)
      .set({ used_at: atIso })
      .where(and(eq(twoFactorRecoveryCodes.user_id, userId), eq(twoFactorRecoveryCodes.code_hash, hash), isNull(twoFactorRecoveryCodes.used_at)))
      .run().changes === 1
  );
}

export function countUnusedRecoveryCodes(db: Db, userId: number): number {
  return (
    db
      .select({ count: sql<number>`count(*)` })
      .from(twoFactorRecoveryCodes)
      .where(and(eq(twoFactorRecoveryCodes.user_id, userId), isNull(twoFactorRecoveryCodes.used_at)))
      .get()?.count ?? 0
  );
}
