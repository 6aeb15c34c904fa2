-- Issue 25 (docs/decisions/0048-releases-and-update-feeds.md): a release's single file moves into release_files,
-- the download log into release_downloads (once per downloader, file and day), in this order so nothing is lost.
CREATE TABLE `release_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`download_item_id` integer NOT NULL,
	`name` text NOT NULL,
	`stored_name` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`sha512` text,
	`platform` text DEFAULT 'any' NOT NULL,
	`arch` text DEFAULT 'universal' NOT NULL,
	`ed_signature` text,
	`ed_signature_kid` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`download_item_id`) REFERENCES `download_items`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `release_files_item_idx` ON `release_files` (`download_item_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `release_files_stored_name_unique` ON `release_files` (`stored_name`);--> statement-breakpoint
INSERT INTO `release_files` (`download_item_id`, `name`, `stored_name`, `size`, `sha256`, `platform`, `arch`, `created_at`)
  SELECT `id`, `download_url`, `stored_name`, `size`, `sha256`, 'any', 'universal', `created_at` FROM `download_items`
  WHERE `stored_name` IS NOT NULL AND `download_url` IS NOT NULL;--> statement-breakpoint
CREATE TABLE `release_downloads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`download_item_id` integer NOT NULL,
	`release_file_id` integer,
	`platform` text NOT NULL,
	`downloader` text NOT NULL,
	`user_id` integer,
	`license_id` integer,
	`day` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`download_item_id`) REFERENCES `download_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`release_file_id`) REFERENCES `release_files`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE set null
);--> statement-breakpoint
CREATE UNIQUE INDEX `release_downloads_once_a_day` ON `release_downloads` (`downloader`,`release_file_id`,`day`);--> statement-breakpoint
CREATE INDEX `release_downloads_item_idx` ON `release_downloads` (`download_item_id`);--> statement-breakpoint
CREATE INDEX `release_downloads_day_idx` ON `release_downloads` (`day`);--> statement-breakpoint
CREATE INDEX `release_downloads_user_idx` ON `release_downloads` (`user_id`);--> statement-breakpoint
-- A logged download whose user is gone keeps counting, as a downloader of its own.
INSERT OR IGNORE INTO `release_downloads` (`download_item_id`, `release_file_id`, `platform`, `downloader`, `user_id`, `day`, `created_at`)
  SELECT l.`download_item_id`, f.`id`, 'any', CASE WHEN l.`user_id` IS NULL THEN 'log:' || l.`id` ELSE 'user:' || l.`user_id` END,
    l.`user_id`, substr(l.`created_at`, 1, 10), l.`created_at`
  FROM `download_log` l LEFT JOIN `release_files` f ON f.`download_item_id` = l.`download_item_id`;--> statement-breakpoint
CREATE TABLE `update_checks` (
	`day` text NOT NULL,
	`channel` text NOT NULL,
	`platform` text NOT NULL,
	`version` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `channel`, `platform`, `version`)
);--> statement-breakpoint
ALTER TABLE `download_items` ADD `version` text;--> statement-breakpoint
ALTER TABLE `download_items` ADD `channel` text DEFAULT 'stable' NOT NULL;--> statement-breakpoint
-- SQLite cannot add a NOT NULL column without a constant default: '' for a moment, then each row's created_at.
ALTER TABLE `download_items` ADD `released_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `download_items` SET `released_at` = `created_at`;--> statement-breakpoint
ALTER TABLE `download_items` ADD `entitlement` text;--> statement-breakpoint
DROP TABLE `download_log`;--> statement-breakpoint
ALTER TABLE `download_items` DROP COLUMN `download_url`;--> statement-breakpoint
ALTER TABLE `download_items` DROP COLUMN `stored_name`;--> statement-breakpoint
ALTER TABLE `download_items` DROP COLUMN `size`;--> statement-breakpoint
ALTER TABLE `download_items` DROP COLUMN `sha256`;
