// Named queries for users (SPEC.md 3 'User'). E-mails compare case-insensitively, like the unique index.
import { and, eq, isNull, sql } from 'drizzle-orm';
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

/**
 * Sets email_verified_at unless it is already set, so the first verification time is kept; true when this
 * call verified the address.
 */
export function markEmailVerified(db: Db, id: number, atIso: string): boolean {
  return (
    db
      .update(users)
      .set({ email_verified_at: atIso, updated_at: atIso })
      .where(and(eq(users.id, id), isNull(users.email_verified_at)))
      .run().changes === 1
  );
}

export function updatePassword(db: Db, id: number, passwordHash: string, atIso: string): void {
  db.update(users).set({ password_hash: passwordHash, updated_at: atIso }).where(eq(users.id, id)).run();
}

/** The fields a user may change on their own record (PUT /api/user/update/{id}); nothing else can pass. */
export type ProfileFields = Partial<Pick<User, 'name' | 'surname' | 'companyName' | 'address' | 'postcode' | 'county' | 'country' | 'phone' | 'vat'>>;

export function updateProfile(db: Db, id: number, fields: ProfileFields, atIso: string): User | undefined {
  const { name, surname, companyName, address, postcode, county, country, phone, vat } = fields;
  // Rebuilt from the named fields so an object carrying more keys cannot widen the update.
  const set = Object.fromEntries(
    Object.entries({ name, surname, companyName, address, postcode, county, country, phone, vat }).filter(([, value]) => value !== undefined),
  ) as ProfileFields;
  return db
    .update(users)
    .set({ ...set, updated_at: atIso })
    .where(eq(users.id, id))
    .returning()
    .get();
}

export function setLicenseRequest(db: Db, id: number, requested: boolean, atIso: string): void {
  db.update(users)
    .set({ license_request: requested ? 1 : 0, updated_at: atIso })
    .where(eq(users.id, id))
    .run();
}
