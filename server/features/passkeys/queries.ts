// Named queries of the passkeys feature (docs/product/accounts.md#passkeys): the credentials, and the challenges
// waiting for their answer (each bound to one browser, used once). Whether a user has a passkey at all, which
// the admins' two-factor requirement reads, is in server/db/queries/passkeys.ts (a shared layer reads it).
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passkeyChallenges, passkeys, type Passkey, type PasskeyChallenge } from '../../db/schema.ts';

export interface NewPasskey {
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  device_type: string;
  backed_up: number;
  name: string;
  created_at: string;
}

export function insertPasskey(db: Db, passkey: NewPasskey): Passkey {
  return db.insert(passkeys).values(passkey).returning().get();
}

export function listPasskeysOfUser(db: Db, userId: number): Passkey[] {
  return db.select().from(passkeys).where(eq(passkeys.user_id, userId)).orderBy(asc(passkeys.created_at), asc(passkeys.id)).all();
}

export function countPasskeysOfUser(db: Db, userId: number): number {
  return (
    db
      .select({ count: sql<number>`count(*)` })
      .from(passkeys)
      .where(eq(passkeys.user_id, userId))
      .get()?.count ?? 0
  );
}

export function getPasskeyByCredentialId(db: Db, credentialId: string): Passkey | undefined {
  return db.select().from(passkeys).where(eq(passkeys.credential_id, credentialId)).get();
}

/** The user's own passkey; another user's id reads as none. */
export function getPasskeyOfUser(db: Db, userId: number, id: number): Passkey | undefined {
  return db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.user_id, userId)))
    .get();
}

export function renamePasskeyOfUser(db: Db, userId: number, id: number, name: string): Passkey | undefined {
  return db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.user_id, userId)))
    .returning()
    .get();
}

export function deletePasskeyOfUser(db: Db, userId: number, id: number): boolean {
  return (
    db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.user_id, userId)))
      .run().changes === 1
  );
}

/**
 * Records a verified use: the new counter, the time, whether it is backed up now. Only if the counter is
 * still the one the check compared against, so two uses racing each other cannot both move it.
 */
export function recordPasskeyUse(db: Db, passkey: Pick<Passkey, 'id' | 'counter'>, use: { counter: number; backedUp: boolean; atIso: string }): boolean {
  return (
    db
      .update(passkeys)
      .set({ counter: use.counter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.atIso })
      .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
      .run().changes === 1
  );
}

export function markPasskeySuspectedClone(db: Db, id: number, atIso: string): void {
  db.update(passkeys).set({ suspected_clone_at: atIso }).where(eq(passkeys.id, id)).run();
}

export function insertPasskeyChallenge(db: Db, challenge: PasskeyChallenge, now: number): void {
  // Housekeeping: abandoned challenges are dead weight (the expiry index keeps it cheap).
  db.delete(passkeyChallenges).where(lte(passkeyChallenges.expires_at, now)).run();
  db.insert(passkeyChallenges).values(challenge).run();
}

/** Deletes and returns the challenge with this id and purpose: whatever the answer, it never works twice. */
export function takePasskeyChallenge(db: Db, id: string, purpose: string): PasskeyChallenge | undefined {
  return db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.id, id), eq(passkeyChallenges.purpose, purpose)))
    .returning()
    .get();
}
