CREATE TABLE `license_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`license_id` integer NOT NULL,
	`actor_user_id` integer,
	`actor_kind` text NOT NULL,
	`action` text NOT NULL,
	`detail` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `license_events_license_idx` ON `license_events` (`license_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `license_machines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`license_id` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`name` text,
	`platform` text,
	`activated_at` text NOT NULL,
	`last_check_in_at` text NOT NULL,
	`lease_expires_at` text NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `license_machines_license_fingerprint_idx` ON `license_machines` (`license_id`,`fingerprint`);--> statement-breakpoint
CREATE TABLE `license_reminders` (
	`license_id` integer NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`sent_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`license_id`, `kind`),
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `licenses` ADD `key` text;--> statement-breakpoint
ALTER TABLE `licenses` ADD `max_machines` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `suspended` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_key_idx` ON `licenses` (`key`);