CREATE TABLE "video_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"generation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"user_id" text,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"version" integer NOT NULL,
	"request" text NOT NULL,
	"callback_url" text,
	"reservation_id" text,
	"endpoint_id" text,
	"upstream_ref" text,
	"outputs" text NOT NULL,
	"cost_nanos" bigint,
	"is_byok" boolean NOT NULL,
	"error_message" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"deadline_at" bigint NOT NULL,
	"completed_at" bigint
);
--> statement-breakpoint
CREATE INDEX "video_jobs_workspace" ON "video_jobs" USING btree ("workspace_id","created_at");