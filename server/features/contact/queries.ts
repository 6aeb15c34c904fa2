// Messages sent through the contact form (POST /api/contact): kept even when the admin mail fails.
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';

export type ContactMessage = typeof contactMessages.$inferSelect;

export function insertContactMessage(db: Db, message: { name: string; email: string; message: string; ip: string | null; created_at: string }): ContactMessage {
  return db.insert(contactMessages).values(message).returning().get();
}
