// Named queries of the update feeds: the update-check counts and the statistics of the admins' downloads page
// (issue 25 item 5). The releases themselves are read through the downloads feature's face.
import { and, desc, eq, gte, isNotNull, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { downloadItems, releaseDownloads, updateChecks } from '../../db/schema.ts';

/** Adds counted checks to the day's rows; run inside a write transaction. */
export function addUpdateChecks(db: Db, rows: ReadonlyArray<{ day: string; channel: string; platform: string; version: string; count: number }>): void {
  for (const row of rows) {
    db.insert(updateChecks)
      .values(row)
      .onConflictDoUpdate({
        target: [updateChecks.day, updateChecks.channel, updateChecks.platform, updateChecks.version],
        set: { count: sql`${updateChecks.count} + excluded.count` },
      })
      .run();
  }
}

/** Downloads since `sinceDay` (inclusive) per release version and platform, most first. */
export function countDownloadsByVersion(db: Db, sinceDay: string): Array<{ version: string | null; platform: string; count: number }> {
  return db
    .select({ version: downloadItems.version, platform: releaseDownloads.platform, count: sql<number>`count(*)` })
    .from(releaseDownloads)
    .innerJoin(downloadItems, eq(releaseDownloads.download_item_id, downloadItems.id))
    .where(gte(releaseDownloads.day, sinceDay))
    .groupBy(downloadItems.version, releaseDownloads.platform)
    .orderBy(desc(sql`count(*)`), downloadItems.version, releaseDownloads.platform)
    .all();
}

/** Update checks since `sinceDay` (inclusive) per channel, platform and reported version ('' when none was). */
export function listUpdateChecks(db: Db, sinceDay: string): Array<{ channel: string; platform: string; version: string; count: number }> {
  return db
    .select({ channel: updateChecks.channel, platform: updateChecks.platform, version: updateChecks.version, count: sql<number>`${sum(updateChecks.count)}` })
    .from(updateChecks)
    .where(and(gte(updateChecks.day, sinceDay), isNotNull(updateChecks.version)))
    .groupBy(updateChecks.channel, updateChecks.platform, updateChecks.version)
    .all()
    .map((row) => ({ ...row, count: Number(row.count) }));
}
