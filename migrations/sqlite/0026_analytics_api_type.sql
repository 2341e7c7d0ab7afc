PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_analytics_hourly` (
	`hour` integer NOT NULL,
	`workspace_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`model` text NOT NULL,
	`provider_name` text NOT NULL,
	`finish_reason` text NOT NULL,
	`api_type` text DEFAULT '' NOT NULL,
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
	`media_completions` integer DEFAULT 0 NOT NULL,
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
	PRIMARY KEY(`hour`, `workspace_id`, `key_hash`, `user_id`, `model`, `provider_name`, `finish_reason`, `api_type`)
);
--> statement-breakpoint
INSERT INTO `__new_analytics_hourly`("hour", "workspace_id", "key_hash", "user_id", "model", "provider_name", "finish_reason", "api_type", "requests", "errors", "cancelled", "byok_requests", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens", "usage_nanos", "byok_usage_nanos", "latency_count", "latency_sum_ms", "throughput_tokens", "generation_ms", "media_completions", "lat_00", "lat_01", "lat_02", "lat_03", "lat_04", "lat_05", "lat_06", "lat_07", "lat_08", "lat_09", "lat_10", "lat_11", "lat_12", "lat_13", "lat_14", "lat_15", "lat_16", "lat_17", "lat_18") SELECT "hour", "workspace_id", "key_hash", "user_id", "model", "provider_name", "finish_reason", '', "requests", "errors", "cancelled", "byok_requests", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens", "usage_nanos", "byok_usage_nanos", "latency_count", "latency_sum_ms", "throughput_tokens", "generation_ms", 0, "lat_00", "lat_01", "lat_02", "lat_03", "lat_04", "lat_05", "lat_06", "lat_07", "lat_08", "lat_09", "lat_10", "lat_11", "lat_12", "lat_13", "lat_14", "lat_15", "lat_16", "lat_17", "lat_18" FROM `analytics_hourly`;--> statement-breakpoint
DROP TABLE `analytics_hourly`;--> statement-breakpoint
ALTER TABLE `__new_analytics_hourly` RENAME TO `analytics_hourly`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `analytics_hourly_workspace` ON `analytics_hourly` (`workspace_id`,`hour`);--> statement-breakpoint
CREATE INDEX `analytics_hourly_key` ON `analytics_hourly` (`key_hash`,`hour`);