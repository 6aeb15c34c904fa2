// The reads behind a user's own data export (GET /api/user/export; docs/product/accounts.md#your-data), one
// per part. Each selects the columns the export shows and nothing else: never a session id or token.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { downloadItems, mailingRecipients, mailings, releaseDownloads, releaseFiles, sessions } from '../../db/schema.ts';

export interface OwnSessionRow {
  /** Only to tell which row is the asking browser's; the export never carries it. */
  id: string;
  persistent: number;
  created_at: string;
  expires_at: number;
  absolute_expires_at: number;
  ip: string | null;
  user_agent: string | null;
  last_active_at: number;
}

export function listOwnSessions(db: Db, userId: number): OwnSessionRow[] {
  return db
    .select({
      id: sessions.id,
      persistent: sessions.persistent,
      created_at: sessions.created_at,
      expires_at: sessions.expires_at,
      absolute_expires_at: sessions.absolute_expires_at,
      ip: sessions.ip,
      user_agent: sessions.user_agent,
      last_active_at: sessions.last_active_at,
    })
    .from(sessions)
    .where(eq(sessions.user_id, userId))
    .orderBy(asc(sessions.created_at))
    .all();
}

export interface OwnDownloadRow {
  title: string;
  release: string;
  file_name: string | null;
  downloaded_at: string;
}

/** The user's downloads (once per file and day, issue 25), oldest first; a file removed since has no name. */
export function listOwnDownloads(db: Db, userId: number): OwnDownloadRow[] {
  return db
    .select({ title: downloadItems.title, release: downloadItems.release, file_name: releaseFiles.name, downloaded_at: releaseDownloads.created_at })
    .from(releaseDownloads)
    .innerJoin(downloadItems, eq(releaseDownloads.download_item_id, downloadItems.id))
    .leftJoin(releaseFiles, eq(releaseDownloads.release_file_id, releaseFiles.id))
    .where(eq(releaseDownloads.user_id, userId))
    .orderBy(asc(releaseDownloads.created_at), asc(releaseDownloads.id))
    .all();
}

export interface ReceivedMailingRow {
  subject: string;
  sent_at: string | null;
}

/** The mailings the user was actually sent (pending, failed and skipped ones never reached them). */
export function listReceivedMailings(db: Db, userId: number): ReceivedMailingRow[] {
  return db
    .select({ subject: mailings.title, sent_at: mailingRecipients.sent_at })
    .from(mailingRecipients)
    .innerJoin(mailings, eq(mailingRecipients.mailing_id, mailings.id))
    .where(and(eq(mailingRecipients.user_id, userId), eq(mailingRecipients.status, 'sent')))
    .orderBy(asc(mailingRecipients.sent_at), asc(mailings.id))
    .all();
}
