CREATE TABLE `analytics_hourly` (
	`hour` integer NOT NULL,
	`workspace_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`model` text NOT NULL,
	`provider_name` text NOT NULL,
	`finish_reason` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`cancelled` integer DEFAULT 0 NOT NULL,
	`byok_requests` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	`usage_nanos` integer DEFAULT 0 NOT NULL,
	`byok_usage_nanos` integer DEFAULT 0 NOT NULL,
	`latency_count` integer DEFAULT 0 NOT NULL,
	`latency_sum_ms` integer DEFAULT 0 NOT NULL,
	`throughput_tokens` integer DEFAULT 0 NOT NULL,
	`generation_ms` integer DEFAULT 0 NOT NULL,
	`lat_00` integer DEFAULT 0 NOT NULL,
	`lat_01` integer DEFAULT 0 NOT NULL,
	`lat_02` integer DEFAULT 0 NOT NULL,
	`lat_03` integer DEFAULT 0 NOT NULL,
	`lat_04` integer DEFAULT 0 NOT NULL,
	`lat_05` integer DEFAULT 0 NOT NULL,
	`lat_06` integer DEFAULT 0 NOT NULL,
	`lat_07` integer DEFAULT 0 NOT NULL,
	`lat_08` integer DEFAULT 0 NOT NULL,
	`lat_09` integer DEFAULT 0 NOT NULL,
	`lat_10` integer DEFAULT 0 NOT NULL,
	`lat_11` integer DEFAULT 0 NOT NULL,
	`lat_12` integer DEFAULT 0 NOT NULL,
	`lat_13` integer DEFAULT 0 NOT NULL,
	`lat_14` integer DEFAULT 0 NOT NULL,
	`lat_15` integer DEFAULT 0 NOT NULL,
	`lat_16` integer DEFAULT 0 NOT NULL,
	`lat_17` integer DEFAULT 0 NOT NULL,
	`lat_18` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`hour`, `workspace_id`, `key_hash`, `user_id`, `model`, `provider_name`, `finish_reason`)
);
--> statement-breakpoint
CREATE INDEX `analytics_hourly_workspace` ON `analytics_hourly` (`workspace_id`,`hour`);--> statement-breakpoint
CREATE INDEX `analytics_hourly_key` ON `analytics_hourly` (`key_hash`,`hour`);--> statement-breakpoint
CREATE TABLE `api_key_previous_hashes` (
	`hash` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`valid_until` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `api_key_previous_hashes_key` ON `api_key_previous_hashes` (`key_hash`);--> statement-breakpoint
CREATE TABLE `budget_alerts` (
	`scope` text NOT NULL,
	`subject_id` text NOT NULL,
	`interval` text NOT NULL,
	`window_key` text NOT NULL,
	`threshold` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `subject_id`, `interval`, `window_key`, `threshold`)
);
--> statement-breakpoint
CREATE TABLE `refusals_hourly` (
	`hour` integer NOT NULL,
	`workspace_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`status` integer NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`hour`, `workspace_id`, `key_hash`, `status`)
);
--> statement-breakpoint
CREATE TABLE `refused_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`status` integer NOT NULL,
	`error_code` text NOT NULL,
	`reason` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`model` text,
	`key_hash` text,
	`workspace_id` text,
	`user_id` text
);
--> statement-breakpoint
CREATE INDEX `refused_requests_time` ON `refused_requests` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `refused_requests_workspace_time` ON `refused_requests` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `refused_requests_key_time` ON `refused_requests` (`key_hash`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `refused_requests_status_time` ON `refused_requests` (`status`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `alert_thresholds` text;--> statement-breakpoint
ALTER TABLE `workspace_budgets` ADD `alert_thresholds` text;