// Named queries for download items (software releases) and the download log.
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { downloadItems, downloadLog, type DownloadItem } from '../../db/schema.ts';

export type DownloadItemInput = Omit<typeof downloadItems.$inferInsert, 'id' | 'created_at' | 'updated_at'>;

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export function insertDownloadItem(db: Db, input: DownloadItemInput): DownloadItem {
  return db.insert(downloadItems).values(input).returning().get();
}

/** Every release, the current one first, then newest first (docs/product/downloads.md#downloads-page: cards, then Previous Releases). */
export function listDownloadItems(db: Db): DownloadItem[] {
  return db.select().from(downloadItems).orderBy(desc(downloadItems.is_current), desc(downloadItems.created_at), desc(downloadItems.id)).all();
}

export function getDownloadItemById(db: Db, id: number): DownloadItem | undefined {
  return db.select().from(downloadItems).where(eq(downloadItems.id, id)).get();
}

export function updateDownloadItem(db: Db, id: number, changes: Partial<DownloadItemInput>): DownloadItem | undefined {
  return db
    .update(downloadItems)
    .set({ ...changes, updated_at: nowIso })
    .where(eq(downloadItems.id, id))
    .returning()
    .get();
}

/** Clears is_current on every release but `keepId`; run it in the transaction that sets the new current one. */
export function clearCurrentDownloadItems(db: Db, keepId?: number): void {
  const isCurrent = eq(downloadItems.is_current, 1);
  db.update(downloadItems)
    .set({ is_current: 0, updated_at: nowIso })
    .where(keepId === undefined ? isCurrent : and(isCurrent, ne(downloadItems.id, keepId)))
    .run();
}

/** Deletes the release (its log rows go with it) and returns the deleted row, or undefined. */
export function deleteDownloadItem(db: Db, id: number): DownloadItem | undefined {
  return db.delete(downloadItems).where(eq(downloadItems.id, id)).returning().get();
}

export function insertDownloadLog(db: Db, entry: { download_item_id: number; user_id: number | null; created_at: string }): void {
  db.insert(downloadLog).values(entry).run();
}

/** Completed downloads per release id. */
export function countDownloadsByItem(db: Db): Map<number, number> {
  const rows = db.select({ id: downloadLog.download_item_id, downloads: count() }).from(downloadLog).groupBy(downloadLog.download_item_id).all();
  return new Map(rows.map((row) => [row.id, row.downloads]));
}

export function countDownloadsOfItem(db: Db, id: number): number {
  return db.select({ downloads: count() }).from(downloadLog).where(eq(downloadLog.download_item_id, id)).get()?.downloads ?? 0;
}
