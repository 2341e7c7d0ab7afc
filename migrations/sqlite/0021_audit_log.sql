CREATE TABLE `audit_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_label` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`workspace_id` text,
	`ip` text,
	`user_agent` text,
	`changes` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_created` ON `audit_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_actor` ON `audit_events` (`actor_id`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_events_target` ON `audit_events` (`target_id`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_events_action` ON `audit_events` (`action`,`seq`);