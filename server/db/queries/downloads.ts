// Named queries for download items (software releases).
import type { Db } from '../client.ts';
import { downloadItems, type DownloadItem } from '../schema.ts';

export type DownloadItemInput = Omit<typeof downloadItems.$inferInsert, 'id' | 'created_at' | 'updated_at'>;

export function insertDownloadItem(db: Db, input: DownloadItemInput): DownloadItem {
  return db.insert(downloadItems).values(input).returning().get();
}
