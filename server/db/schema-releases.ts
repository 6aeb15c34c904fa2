// The files of software releases and what the company counts of them (issue 25; docs/updates.md,
// docs/decisions/0048-releases-and-update-feeds.md). Kept beside the core tables (schema-core.ts); schema.ts exports all three.
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { downloadItems, licenses, users } from './schema-core.ts';

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const RELEASE_PLATFORMS = ['windows', 'macos', 'linux', 'any'] as const;
export const RELEASE_ARCHES = ['x64', 'arm64', 'universal'] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];
export type ReleaseArch = (typeof RELEASE_ARCHES)[number];

/** One file of a release; the oldest is the release's "first file" (today's single `file`). */
export const releaseFiles = sqliteTable(
  'release_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    download_item_id: integer('download_item_id')
      .notNull()
      .references(() => downloadItems.id, { onDelete: 'cascade' }),
    /** The file name offered to downloaders (the release's download_url for the first file). */
    name: text('name').notNull(),
    /** Random name under $DATA_DIR/private/downloads (server/storage/release-files.ts). */
    stored_name: text('stored_name').notNull(),
    size: integer('size').notNull(),
    /** Lower-case hex. */
    sha256: text('sha256').notNull(),
    /** Lower-case hex; null only for files stored before issue 25 until the start-up pass hashes them. */
    sha512: text('sha512'),
    platform: text('platform', { enum: RELEASE_PLATFORMS }).notNull().default('any'),
    arch: text('arch', { enum: RELEASE_ARCHES }).notNull().default('universal'),
    /** Base64 Ed25519 signature of the file's bytes (Sparkle's edSignature), made after upload in the background. */
    ed_signature: text('ed_signature'),
    /** The update-signing key that made ed_signature. */
    ed_signature_kid: text('ed_signature_kid'),
    created_at: text('created_at').notNull().default(nowIso),
  },
  (table) => [index('release_files_item_idx').on(table.download_item_id, table.id), uniqueIndex('release_files_stored_name_unique').on(table.stored_name)],
);

/**
 * Downloads, counted once per downloader (a user or a license key), file and day, at the start of the
 * download: a resumed download is the same row (INSERT OR IGNORE on the unique key).
 */
export const releaseDownloads = sqliteTable(
  'release_downloads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    download_item_id: integer('download_item_id')
      .notNull()
      .references(() => downloadItems.id, { onDelete: 'cascade' }),
    /** Null once the file was removed from the release; its downloads still count. */
    release_file_id: integer('release_file_id').references(() => releaseFiles.id, { onDelete: 'set null' }),
    /** The file's platform when it was downloaded (the statistics group by it). */
    platform: text('platform').notNull(),
    /** `user:<id>` or `license:<id>`: who, for the once-a-day rule. */
    downloader: text('downloader').notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    license_id: integer('license_id').references(() => licenses.id, { onDelete: 'set null' }),
    /** UTC date `YYYY-MM-DD`. */
    day: text('day').notNull(),
    created_at: text('created_at').notNull().default(nowIso),
  },
  (table) => [
    uniqueIndex('release_downloads_once_a_day').on(table.downloader, table.release_file_id, table.day),
    index('release_downloads_item_idx').on(table.download_item_id),
    index('release_downloads_day_idx').on(table.day),
    index('release_downloads_user_idx').on(table.user_id),
  ],
);

/** Update checks per day, channel, platform and the version the software reported ('' when none). */
export const updateChecks = sqliteTable(
  'update_checks',
  {
    day: text('day').notNull(),
    channel: text('channel').notNull(),
    platform: text('platform').notNull(),
    version: text('version').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.channel, table.platform, table.version] })],
);

export type ReleaseFile = typeof releaseFiles.$inferSelect;
