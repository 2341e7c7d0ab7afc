CREATE TABLE "response_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"generation_id" text NOT NULL,
	"answer" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "cache_status" text;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "cache_source_id" text;--> statement-breakpoint
CREATE INDEX "response_cache_expiry" ON "response_cache" USING btree ("expires_at");