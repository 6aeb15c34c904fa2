// Named queries for users (SPEC.md 3 'User'). E-mails compare case-insensitively, like the unique index.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { users, type User } from '../schema.ts';

export type NewUser = typeof users.$inferInsert;

export function getUserById(db: Db, id: number): User | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

/** Case-insensitive, matching the COLLATE NOCASE unique index so that index serves the lookup. */
export function getUserByEmail(db: Db, email: string): User | undefined {
  return db
    .select()
    .from(users)
    .where(sql`${users.email} COLLATE NOCASE = ${email.trim()}`)
    .get();
}

export function insertUser(db: Db, user: NewUser): User {
  return db.insert(users).values(user).returning().get();
}
