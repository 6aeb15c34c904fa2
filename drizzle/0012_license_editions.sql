ALTER TABLE `license_types` ADD `entitlements` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `license_types` ADD `max_machines` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `license_types` ADD `duration_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `license_types` ADD `maintenance_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `license_types` ADD `floating` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `license_types` ADD `lease_minutes` integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `extra_entitlements` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `maintenance_until` text;