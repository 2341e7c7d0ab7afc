CREATE INDEX `workspace_members_user` ON `workspace_members` (`user_id`);--> statement-breakpoint
CREATE INDEX `generations_model_time` ON `generations` (`model`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `generations_provider_time` ON `generations` (`provider_name`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `generations_finish_time` ON `generations` (`finish_reason`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `generations_cancelled_time` ON `generations` (`cancelled`,`created_at`,`id`);