ALTER TABLE `api_keys` ADD `rate_limit_rpm` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rate_limit_tpm` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rate_limit_concurrency` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `rate_limit_rpm` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `rate_limit_tpm` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `rate_limit_concurrency` integer;