// Named queries for sessions. `id` is the SHA-256 of the cookie token (server/auth/sessions.ts).
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { preparedFor } from '../prepared.ts';
import { sessions, users, type Session, type User } from '../schema.ts';

export function insertSession(db: Db, session: { id: string; user_id: number; expires_at: number; absolute_expires_at: number; persistent: boolean }): Session {
  return db
    .insert(sessions)
    .values({ ...session, persistent: session.persistent ? 1 : 0 })
    .returning()
    .get();
}

/** One read per request: the session and its user together. */
const sessionWithUserStatement = (db: Db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(sessions.user_id, users.id))
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare();

export function getSessionWithUser(db: Db, id: string): { session: Session; user: User } | undefined {
  return preparedFor(db, sessionWithUserStatement, sessionWithUserStatement).get({ id });
}

export function updateSessionExpiry(db: Db, id: string, expiresAt: number): void {
  db.update(sessions).set({ expires_at: expiresAt }).where(eq(sessions.id, id)).run();
}

export function deleteSession(db: Db, id: string): void {
  db.delete(sessions).where(eq(sessions.id, id)).run();
}

export function deleteSessionsOfUser(db: Db, userId: number): number {
  return db.delete(sessions).where(eq(sessions.user_id, userId)).run().changes;
}

/** Housekeeping at login: expired rows of that user are dead weight (the user index keeps it cheap). */
export function deleteExpiredSessionsOfUser(db: Db, userId: number, now: number): void {
  db.delete(sessions)
    .where(and(eq(sessions.user_id, userId), lte(sessions.expires_at, now)))
    .run();
}
