CREATE TABLE `activity_daily` (
	`day` text NOT NULL,
	`workspace_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`model` text NOT NULL,
	`provider_name` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`usage_nanos` integer DEFAULT 0 NOT NULL,
	`byok_usage_nanos` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `workspace_id`, `key_hash`, `user_id`, `model`, `provider_name`, `endpoint_id`)
);
--> statement-breakpoint
CREATE TABLE `generation_feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`generation_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`category` text NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `generation_feedback_generation` ON `generation_feedback` (`generation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `workspace_budgets` (
	`id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`period` text NOT NULL,
	`limit_nanos` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `period`)
);
--> statement-breakpoint
CREATE TABLE `workspace_usage` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`day_key` text NOT NULL,
	`week_key` text NOT NULL,
	`month_key` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`day` integer DEFAULT 0 NOT NULL,
	`week` integer DEFAULT 0 NOT NULL,
	`month` integer DEFAULT 0 NOT NULL,
	`byok_total` integer DEFAULT 0 NOT NULL,
	`byok_day` integer DEFAULT 0 NOT NULL,
	`byok_week` integer DEFAULT 0 NOT NULL,
	`byok_month` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `reservations` ADD `workspace_id` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `workspace_amount_nanos` integer DEFAULT 0 NOT NULL;