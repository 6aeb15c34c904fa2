// Named queries for sessions. `id` is the SHA-256 of the cookie token (server/auth/sessions.ts); `public_id`
// is the random id the session lists show (docs/decisions/0024-session-control.md).
import { and, desc, eq, gt, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { preparedFor, preparedRows } from '../prepared.ts';
import { rowsByIndex } from '../rows-by-index.ts';
import { sessions, users, type Session, type User } from '../schema.ts';

export interface NewSession {
  id: string;
  public_id: string;
  user_id: number;
  expires_at: number;
  absolute_expires_at: number;
  persistent: boolean;
  ip: string | null;
  user_agent: string | null;
  last_active_at: number;
  created_at: string;
  /** 'password' (the default) or 'passkey'. */
  signed_in_with?: 'password' | 'passkey';
}

export function insertSession(db: Db, session: NewSession): Session {
  return db
    .insert(sessions)
    .values({ ...session, persistent: session.persistent ? 1 : 0 })
    .returning()
    .get();
}

/** One read per request: the session and its user together. */
const sessionWithUserStatement = (db: Db) =>
  preparedRows(
    db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(sessions.user_id, users.id))
      .where(rowsByIndex(sessions, eq(sessions.id, sql.placeholder('id')))),
  );

export function getSessionWithUser(db: Db, id: string): { session: Session; user: User } | undefined {
  return preparedFor(db, sessionWithUserStatement, sessionWithUserStatement).get({ id });
}

/** One write for whatever validation changed: the sliding expiry, the last use, a missing public id. */
export function updateSessionActivity(db: Db, id: string, activity: Pick<Session, 'expires_at' | 'last_active_at' | 'public_id'>): void {
  db.update(sessions).set(activity).where(eq(sessions.id, id)).run();
}

/** The user's live sessions (not expired, with a public id), most recently used first. */
export function listLiveSessionsOfUser(db: Db, userId: number, now: number): Session[] {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.user_id, userId), gt(sessions.expires_at, now), gt(sessions.absolute_expires_at, now), ne(sessions.public_id, '')))
    .orderBy(desc(sessions.last_active_at))
    .all();
}

/** Ends one session of the user by its public id; false when the user has none by that id. */
export function deleteSessionOfUserByPublicId(db: Db, userId: number, publicId: string): boolean {
  if (publicId === '') return false;
  return (
    db
      .delete(sessions)
      .where(and(eq(sessions.user_id, userId), eq(sessions.public_id, publicId)))
      .run().changes > 0
  );
}

export function deleteSessionsOfUserExcept(db: Db, userId: number, keepId: string): number {
  return db
    .delete(sessions)
    .where(and(eq(sessions.user_id, userId), ne(sessions.id, keepId)))
    .run().changes;
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

/** The session row alone: when and how it was signed in to (passkey confirmations, docs/product/accounts.md#passkeys). */
export function getSession(db: Db, id: string): Session | undefined {
  return db.select().from(sessions).where(eq(sessions.id, id)).get();
}
