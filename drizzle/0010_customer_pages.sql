CREATE TABLE `legal_pages` (
	`slug` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `assigned_to` integer;--> statement-breakpoint
ALTER TABLE `inbox_replies` ADD `author` text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE `license_requests` ADD `assigned_to` integer;--> statement-breakpoint
ALTER TABLE `license_requests` ADD `decided_at` text;--> statement-breakpoint
ALTER TABLE `license_requests` ADD `decided_by` integer;