CREATE TABLE `rate_limit_hits` (
	`limiter` text NOT NULL,
	`key` text NOT NULL,
	`hits` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`limiter`, `key`)
);
--> statement-breakpoint
CREATE INDEX `rate_limit_hits_expires_idx` ON `rate_limit_hits` (`expires_at`);