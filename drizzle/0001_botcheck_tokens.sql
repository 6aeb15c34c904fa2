CREATE TABLE `botcheck_spent` (
	`nonce` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `botcheck_spent_expires_idx` ON `botcheck_spent` (`expires_at`);