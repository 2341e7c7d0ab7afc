ALTER TABLE "api_keys" ADD COLUMN "rate_limit_rpm" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rate_limit_tpm" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rate_limit_concurrency" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "rate_limit_rpm" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "rate_limit_tpm" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "rate_limit_concurrency" integer;