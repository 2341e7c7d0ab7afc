CREATE TABLE `response_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`generation_id` text NOT NULL,
	`answer` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `response_cache_expiry` ON `response_cache` (`expires_at`);--> statement-breakpoint
ALTER TABLE `generations` ADD `cache_status` text;--> statement-breakpoint
ALTER TABLE `generations` ADD `cache_source_id` text;