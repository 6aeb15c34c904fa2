// Named queries for users (docs/product/data-model.md#user). E-mails compare case-insensitively, like the unique index.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { preparedFor, preparedRows } from '../prepared.ts';
import { equalsConstant } from '../rows-by-index.ts';
import { posts, users, type User } from '../schema.ts';

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

/**
 * The new value of users.email_change_nonce for a write that changes the address or the password: every
 * such write bumps it, so the e-mail-change links made before it die (server/features/profile/routes.ts).
 */
const bumpedEmailChangeNonce = sql`${users.email_change_nonce} + 1`;

export function updatePassword(db: Db, id: number, passwordHash: string, atIso: string): void {
  db.update(users).set({ password_hash: passwordHash, email_change_nonce: bumpedEmailChangeNonce, updated_at: atIso }).where(eq(users.id, id)).run();
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

/** Every user, for the admin's GET /api/license/getAll: one query (10,000 rows take a few milliseconds). */
export function listAllUsers(db: Db): User[] {
  return db.select().from(users).orderBy(users.id).all();
}

/** Users by id, in one query whatever the count (the ids travel as one JSON parameter). */
export function getUsersByIds(db: Db, ids: readonly number[]): User[] {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(sql`${users.id} in (select value from json_each(${JSON.stringify(ids)}))`)
    .orderBy(users.id)
    .all();
}

/** Verified, not banned, not unsubscribed: who "all verified users" of a mailing means. */
export function listMailableVerifiedUsers(db: Db): User[] {
  return db
    .select()
    .from(users)
    .where(and(isNotNull(users.email_verified_at), eq(users.is_banned, 0), isNull(users.unsubscribed_at)))
    .orderBy(users.id)
    .all();
}

/** Admins who can still sign in: the ones that keep the admin screen reachable. */
export function countActiveAdmins(db: Db): number {
  const row = db
    .select({ count: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.is_banned, 0)))
    .get();
  return row?.count ?? 0;
}

/** The fields only an admin may set (issue 7), on top of the profile fields. */
export type AdminUserFields = ProfileFields & Partial<Pick<User, 'email' | 'email_verified_at' | 'role' | 'is_banned' | 'license_request'>>;

export function updateUserAsAdmin(db: Db, id: number, fields: AdminUserFields, atIso: string): User | undefined {
  const { name, surname, companyName, address, postcode, county, country, phone, vat, email, email_verified_at, role, is_banned, license_request } = fields;
  // Rebuilt from the named fields, like updateProfile: nothing else can widen the update.
  const set = Object.fromEntries(
    Object.entries({
      name,
      surname,
      companyName,
      address,
      postcode,
      county,
      country,
      phone,
      vat,
      email,
      email_verified_at,
      role,
      is_banned,
      license_request,
    }).filter(([, value]) => value !== undefined),
  ) as AdminUserFields;
  // A new address (SET reads the row as it was) voids the e-mail-change links made for the old one.
  const nonce =
    set.email === undefined
      ? {}
      : { email_change_nonce: sql`CASE WHEN ${users.email} = ${set.email} THEN ${users.email_change_nonce} ELSE ${bumpedEmailChangeNonce} END` };
  return db
    .update(users)
    .set({ ...set, ...nonce, updated_at: atIso })
    .where(eq(users.id, id))
    .returning()
    .get();
}

export function setUserBanned(db: Db, id: number, banned: boolean, atIso: string): User | undefined {
  return db
    .update(users)
    .set({ is_banned: banned ? 1 : 0, updated_at: atIso })
    .where(eq(users.id, id))
    .returning()
    .get();
}

/** Hard delete (docs/product/messages.md#error-catalogue); sessions, licenses, reset tokens and mailing rows go with it by cascade. */
export function deleteUserById(db: Db, id: number): boolean {
  return db.delete(users).where(eq(users.id, id)).run().changes === 1;
}

/** Records the unsubscribe (the first time is kept); true when the user exists. */
export function markUnsubscribed(db: Db, id: number, atIso: string): boolean {
  db.update(users)
    .set({ unsubscribed_at: atIso })
    .where(and(eq(users.id, id), isNull(users.unsubscribed_at)))
    .run();
  return getUserById(db, id) !== undefined;
}

/** Whether the user wrote posts: their name and role are then on published pages. */
export function isPostAuthor(db: Db, id: number): boolean {
  return db.select({ id: posts.id }).from(posts).where(eq(posts.user_id, id)).limit(1).get() !== undefined;
}

/** Id and address of every user: what matching users against banned domains needs, and no more. */
export function listUserEmails(db: Db): Array<Pick<User, 'id' | 'email'>> {
  return db.select({ id: users.id, email: users.email }).from(users).orderBy(users.id).all();
}

/** A confirmed change of address (docs/product/accounts.md#change-e-mail): the new address is proven, so verified now. */
export function changeEmail(db: Db, id: number, email: string, atIso: string): void {
  db.update(users).set({ email, email_verified_at: atIso, email_change_nonce: bumpedEmailChangeNonce, updated_at: atIso }).where(eq(users.id, id)).run();
}

/** The addresses of the admins who can sign in, oldest account first: who hears of contact messages and license requests. */
export function listAdminEmails(db: Db): string[] {
  return db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.is_banned, 0)))
    .orderBy(users.id)
    .all()
    .map((row) => row.email);
}

// Its constants in the SQL text and no bound LIMIT (get() reads the first row in rowid order and stops), so
// SQLite plans it once instead of on every run (server/db/rows-by-index.ts).
const firstAdminEmailStatement = (db: Db) =>
  preparedRows(
    db
      .select({ email: users.email })
      .from(users)
      .where(and(equalsConstant(users.role, 'admin'), equalsConstant(users.is_banned, 0)))
      .orderBy(users.id),
  );

/**
 * The oldest admin account's address that can still sign in (the seeded one, usually id 1: the scan stops at
 * once). Every GET /api/user without SUPPORT_EMAIL asks for it: prepared once (server/db/prepared.ts), since
 * building and preparing the query cost six times its run (46 µs against 7 µs, measured) and halved that
 * answer's rate in `npm run bench`.
 */
export function firstAdminEmail(db: Db): string | undefined {
  return preparedFor(db, firstAdminEmailStatement, firstAdminEmailStatement).get()?.email;
}
