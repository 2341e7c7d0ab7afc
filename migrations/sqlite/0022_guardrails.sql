CREATE TABLE `guardrail_key_assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`guardrail_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`assigned_by` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guardrail_key_assignments_key` ON `guardrail_key_assignments` (`key_hash`);--> statement-breakpoint
CREATE INDEX `guardrail_key_assignments_guardrail` ON `guardrail_key_assignments` (`guardrail_id`);--> statement-breakpoint
CREATE TABLE `guardrail_member_assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`guardrail_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`assigned_by` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guardrail_member_assignments_member` ON `guardrail_member_assignments` (`workspace_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `guardrail_member_assignments_guardrail` ON `guardrail_member_assignments` (`guardrail_id`);--> statement-breakpoint
CREATE TABLE `guardrails` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`rules` text DEFAULT '{}' NOT NULL,
	`limit_nanos` integer,
	`reset_interval` text,
	`include_byok_in_budgets` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE INDEX `guardrails_workspace` ON `guardrails` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `member_usage` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
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
	`held` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`)
);
--> statement-breakpoint
ALTER TABLE `generations` ADD `guardrail_flags` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `member_user_id` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `member_amount_nanos` integer DEFAULT 0 NOT NULL;