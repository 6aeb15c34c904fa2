DROP INDEX `mailing_recipients_due_idx`;--> statement-breakpoint
CREATE INDEX `mailing_recipients_due_idx` ON `mailing_recipients` (`status`,`next_attempt_at`,`mailing_id`,`user_id`);