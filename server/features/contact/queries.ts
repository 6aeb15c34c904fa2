// Messages sent through the contact form (POST /api/contact): kept even when the admin mail fails.
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import { CONTACT_DETAILS_KEY, type ContactDetails } from '../../db/queries/site-pages.ts';
import { setSetting } from '../../db/queries/settings.ts';

export type ContactMessage = typeof contactMessages.$inferSelect;

export function insertContactMessage(db: Db, message: { name: string; email: string; message: string; ip: string | null; created_at: string }): ContactMessage {
  return db.insert(contactMessages).values(message).returning().get();
}

/**
 * The messages sent from this address, oldest first: part of a user's own data (GET /api/user/export).
 * Only ever asked for a verified address, so nobody reads messages by registering someone else's e-mail.
 */
export function listContactMessagesFrom(db: Db, email: string): ContactMessage[] {
  return db
    .select()
    .from(contactMessages)
    .where(sql`${contactMessages.email} COLLATE NOCASE = ${email}`)
    .orderBy(asc(contactMessages.created_at), asc(contactMessages.id))
    .all();
}

/** Deletes the messages sent from this address (a verified one; server/features/users/delete-user.ts); how many went. */
export function deleteContactMessagesFrom(db: Db, email: string): number {
  return db
    .delete(contactMessages)
    .where(sql`${contactMessages.email} COLLATE NOCASE = ${email}`)
    .run().changes;
}

/** The contact details on /contact (issue 28, section 1); read by server/db/queries/site-pages.ts getContactDetails. */
export function saveContactDetails(db: Db, details: ContactDetails): void {
  setSetting(db, CONTACT_DETAILS_KEY, JSON.stringify(details));
}
