CREATE TABLE "workspace_webhook_secrets" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"sealed_secret" text NOT NULL,
	"sealed_previous_secret" text,
	"previous_valid_until" bigint,
	"rotated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "webhook_url" text;