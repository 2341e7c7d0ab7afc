CREATE INDEX `generations_time` ON `generations` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `generations_workspace_time` ON `generations` (`workspace_id`,`created_at`);