CREATE TABLE `inbox_replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_message_id` integer,
	`license_request_id` integer,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`sent_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`contact_message_id`) REFERENCES `contact_messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`license_request_id`) REFERENCES `license_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sent_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inbox_replies_contact_idx` ON `inbox_replies` (`contact_message_id`);--> statement-breakpoint
CREATE INDEX `inbox_replies_license_request_idx` ON `inbox_replies` (`license_request_id`);--> statement-breakpoint
CREATE TABLE `license_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`read_at` text,
	`handled_at` text,
	`handled_by` integer,
	`outcome` text,
	`decline_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `license_requests_user_idx` ON `license_requests` (`user_id`);--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `read_at` text;--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `handled_at` text;--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `handled_by` integer;