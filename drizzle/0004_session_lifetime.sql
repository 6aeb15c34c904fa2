ALTER TABLE `sessions` ADD `absolute_expires_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Sessions that existed before absolute lifetimes end at their current expiry at the latest.
UPDATE `sessions` SET `absolute_expires_at` = `expires_at`;
