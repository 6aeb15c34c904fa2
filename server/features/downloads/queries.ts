// Named queries for download items (software releases), their files and their download counts.
import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedFor, preparedRows } from '../../db/prepared.ts';
import { equalsConstant } from '../../db/rows-by-index.ts';
import { downloadItems, releaseDownloads, releaseFiles, type DownloadItem, type ReleaseFile } from '../../db/schema.ts';

export type DownloadItemInput = Omit<typeof downloadItems.$inferInsert, 'id' | 'created_at' | 'updated_at'>;
export type ReleaseFileInput = Omit<typeof releaseFiles.$inferInsert, 'id' | 'created_at'>;
/** A release with its files, oldest first: files[0] is the release's first file (today's `file`). */
export type ReleaseWithFiles = DownloadItem & { files: ReleaseFile[] };

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export function insertDownloadItem(db: Db, input: DownloadItemInput): DownloadItem {
  return db.insert(downloadItems).values(input).returning().get();
}

/** The files of the given releases (all when `ids` is omitted), grouped by release, oldest first. */
function filesByItem(db: Db, ids?: readonly number[]): Map<number, ReleaseFile[]> {
  const rows = db
    .select()
    .from(releaseFiles)
    .where(ids ? inArray(releaseFiles.download_item_id, [...ids]) : undefined)
    .orderBy(asc(releaseFiles.download_item_id), asc(releaseFiles.id))
    .all();
  const grouped = new Map<number, ReleaseFile[]>();
  for (const row of rows) grouped.set(row.download_item_id, [...(grouped.get(row.download_item_id) ?? []), row]);
  return grouped;
}

function withFiles(db: Db, items: DownloadItem[], all = false): ReleaseWithFiles[] {
  if (items.length === 0) return [];
  const files = filesByItem(db, all ? undefined : items.map((item) => item.id));
  return items.map((item) => ({ ...item, files: files.get(item.id) ?? [] }));
}

/** Every release with its files, the current one first, then newest first (docs/product/downloads.md#downloads-page: cards, then Previous Releases). */
export function listDownloadItems(db: Db): ReleaseWithFiles[] {
  const items = db.select().from(downloadItems).orderBy(desc(downloadItems.is_current), desc(downloadItems.created_at), desc(downloadItems.id)).all();
  return withFiles(db, items, true);
}

// The flag as a literal: bound, it would have SQLite plan the ordered read again on every check (server/db/rows-by-index.ts).
const versioned = and(equalsConstant(downloadItems.downloadable, 1), sql`${downloadItems.version} is not null`);
// Every update check reads these two (GET /api/updates/v1/latest): prepared once per connection, as the
// other hottest reads are, and run without drizzle's row mapping (server/db/prepared.ts; bench: latest
// beside a bare handler).
const versionedItemsStatement = (db: Db) =>
  preparedRows(db.select().from(downloadItems).where(versioned).orderBy(desc(downloadItems.released_at), desc(downloadItems.id)));
const versionedFilesStatement = (db: Db) =>
  preparedRows(
    db
      .select()
      .from(releaseFiles)
      .where(inArray(releaseFiles.download_item_id, db.select({ id: downloadItems.id }).from(downloadItems).where(versioned)))
      .orderBy(asc(releaseFiles.download_item_id), asc(releaseFiles.id)),
  );

/** The releases that may reach customers through the update feeds: downloadable ones with a version, newest release first. */
export function listVersionedReleases(db: Db): ReleaseWithFiles[] {
  const items = preparedFor(db, versionedItemsStatement, versionedItemsStatement).all();
  const files = new Map<number, ReleaseFile[]>();
  for (const file of preparedFor(db, versionedFilesStatement, versionedFilesStatement).all()) {
    const list = files.get(file.download_item_id);
    if (list) list.push(file);
    else files.set(file.download_item_id, [file]);
  }
  return items.map((item) => ({ ...item, files: files.get(item.id) ?? [] }));
}

export function getDownloadItemById(db: Db, id: number): DownloadItem | undefined {
  return db.select().from(downloadItems).where(eq(downloadItems.id, id)).get();
}

export function getReleaseWithFiles(db: Db, id: number): ReleaseWithFiles | undefined {
  const item = getDownloadItemById(db, id);
  return item ? withFiles(db, [item])[0] : undefined;
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

/** Deletes the release (its files' rows and download counts go with it) and returns it with the files it had. */
export function deleteDownloadItem(db: Db, id: number): ReleaseWithFiles | undefined {
  const release = getReleaseWithFiles(db, id);
  if (!release) return undefined;
  db.delete(downloadItems).where(eq(downloadItems.id, id)).run();
  return release;
}

export function insertReleaseFile(db: Db, input: ReleaseFileInput): ReleaseFile {
  return db.insert(releaseFiles).values(input).returning().get();
}

/** Puts new bytes in place of a file row (the release form's `file` replaces the first file); returns the row as it was. */
export function replaceReleaseFile(db: Db, fileId: number, changes: Omit<ReleaseFileInput, 'download_item_id'>): ReleaseFile | undefined {
  const previous = db.select().from(releaseFiles).where(eq(releaseFiles.id, fileId)).get();
  if (!previous) return undefined;
  db.update(releaseFiles)
    .set({ ...changes, ed_signature: null, ed_signature_kid: null })
    .where(eq(releaseFiles.id, fileId))
    .run();
  return previous;
}

/** One file of one release (a file id under another release is not found). */
export function getReleaseFile(db: Db, itemId: number, fileId: number): ReleaseFile | undefined {
  return db
    .select()
    .from(releaseFiles)
    .where(and(eq(releaseFiles.id, fileId), eq(releaseFiles.download_item_id, itemId)))
    .get();
}

export function getReleaseFileById(db: Db, fileId: number): ReleaseFile | undefined {
  return db.select().from(releaseFiles).where(eq(releaseFiles.id, fileId)).get();
}

export function deleteReleaseFile(db: Db, itemId: number, fileId: number): ReleaseFile | undefined {
  return db
    .delete(releaseFiles)
    .where(and(eq(releaseFiles.id, fileId), eq(releaseFiles.download_item_id, itemId)))
    .returning()
    .get();
}

/** Files still waiting for their SHA-512 or Ed25519 signature (by `kid`), oldest first. */
export function listFilesWithoutDigests(db: Db, limit: number): ReleaseFile[] {
  return db
    .select()
    .from(releaseFiles)
    .where(sql`${releaseFiles.sha512} is null or ${releaseFiles.ed_signature} is null`)
    .orderBy(asc(releaseFiles.id))
    .limit(limit)
    .all();
}

/** Stores a file's digests, only if it still holds the bytes they were made from (an upload may have replaced them). */
export function storeFileDigests(
  db: Db,
  fileId: number,
  storedName: string,
  digests: { sha512: string; ed_signature: string; ed_signature_kid: string },
): void {
  db.update(releaseFiles)
    .set(digests)
    .where(and(eq(releaseFiles.id, fileId), eq(releaseFiles.stored_name, storedName)))
    .run();
}

export interface DownloadRecord {
  download_item_id: number;
  release_file_id: number;
  platform: string;
  /** `user:<id>` or `license:<id>`. */
  downloader: string;
  user_id: number | null;
  license_id: number | null;
  /** UTC `YYYY-MM-DD`. */
  day: string;
}

/** Counts a download once per downloader, file and day: a second start (a resumption) changes nothing. */
export function recordDownload(db: Db, record: DownloadRecord): void {
  db.insert(releaseDownloads).values(record).onConflictDoNothing().run();
}

/** Downloads per release id (once per downloader, file and day). */
export function countDownloadsByItem(db: Db): Map<number, number> {
  const rows = db.select({ id: releaseDownloads.download_item_id, downloads: count() }).from(releaseDownloads).groupBy(releaseDownloads.download_item_id).all();
  return new Map(rows.map((row) => [row.id, row.downloads]));
}

export function countDownloadsOfItem(db: Db, id: number): number {
  return db.select({ downloads: count() }).from(releaseDownloads).where(eq(releaseDownloads.download_item_id, id)).get()?.downloads ?? 0;
}
