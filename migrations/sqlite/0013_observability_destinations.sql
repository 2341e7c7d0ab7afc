CREATE TABLE `observability_destinations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`privacy_mode` integer DEFAULT false NOT NULL,
	`sampling_rate` real DEFAULT 1 NOT NULL,
	`regions` text DEFAULT '["global"]' NOT NULL,
	`api_key_hashes` text,
	`filter_rules` text,
	`broadcast_generation_cost` integer DEFAULT false NOT NULL,
	`broadcast_generation_identity` integer DEFAULT false NOT NULL,
	`broadcast_generation_request_context` integer DEFAULT false NOT NULL,
	`config` text NOT NULL,
	`sealed_config` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `observability_destinations_workspace_type` ON `observability_destinations` (`workspace_id`,`type`);