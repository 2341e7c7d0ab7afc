CREATE TABLE "analytics_hourly" (
	"hour" bigint NOT NULL,
	"workspace_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"user_id" text NOT NULL,
	"model" text NOT NULL,
	"provider_name" text NOT NULL,
	"finish_reason" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"cancelled" bigint DEFAULT 0 NOT NULL,
	"byok_requests" bigint DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"reasoning_tokens" bigint DEFAULT 0 NOT NULL,
	"cached_tokens" bigint DEFAULT 0 NOT NULL,
	"usage_nanos" bigint DEFAULT 0 NOT NULL,
	"byok_usage_nanos" bigint DEFAULT 0 NOT NULL,
	"latency_count" bigint DEFAULT 0 NOT NULL,
	"latency_sum_ms" bigint DEFAULT 0 NOT NULL,
	"throughput_tokens" bigint DEFAULT 0 NOT NULL,
	"generation_ms" bigint DEFAULT 0 NOT NULL,
	"lat_00" bigint DEFAULT 0 NOT NULL,
	"lat_01" bigint DEFAULT 0 NOT NULL,
	"lat_02" bigint DEFAULT 0 NOT NULL,
	"lat_03" bigint DEFAULT 0 NOT NULL,
	"lat_04" bigint DEFAULT 0 NOT NULL,
	"lat_05" bigint DEFAULT 0 NOT NULL,
	"lat_06" bigint DEFAULT 0 NOT NULL,
	"lat_07" bigint DEFAULT 0 NOT NULL,
	"lat_08" bigint DEFAULT 0 NOT NULL,
	"lat_09" bigint DEFAULT 0 NOT NULL,
	"lat_10" bigint DEFAULT 0 NOT NULL,
	"lat_11" bigint DEFAULT 0 NOT NULL,
	"lat_12" bigint DEFAULT 0 NOT NULL,
	"lat_13" bigint DEFAULT 0 NOT NULL,
	"lat_14" bigint DEFAULT 0 NOT NULL,
	"lat_15" bigint DEFAULT 0 NOT NULL,
	"lat_16" bigint DEFAULT 0 NOT NULL,
	"lat_17" bigint DEFAULT 0 NOT NULL,
	"lat_18" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_hourly_hour_workspace_id_key_hash_user_id_model_provider_name_finish_reason_pk" PRIMARY KEY("hour","workspace_id","key_hash","user_id","model","provider_name","finish_reason")
);
--> statement-breakpoint
CREATE TABLE "api_key_previous_hashes" (
	"hash" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"valid_until" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"scope" text NOT NULL,
	"subject_id" text NOT NULL,
	"interval" text NOT NULL,
	"window_key" text NOT NULL,
	"threshold" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "budget_alerts_scope_subject_id_interval_window_key_threshold_pk" PRIMARY KEY("scope","subject_id","interval","window_key","threshold")
);
--> statement-breakpoint
CREATE TABLE "refusals_hourly" (
	"hour" bigint NOT NULL,
	"workspace_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"status" integer NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "refusals_hourly_hour_workspace_id_key_hash_status_pk" PRIMARY KEY("hour","workspace_id","key_hash","status")
);
--> statement-breakpoint
CREATE TABLE "refused_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"status" integer NOT NULL,
	"error_code" text NOT NULL,
	"reason" text NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"model" text,
	"key_hash" text,
	"workspace_id" text,
	"user_id" text
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "alert_thresholds" text;--> statement-breakpoint
ALTER TABLE "workspace_budgets" ADD COLUMN "alert_thresholds" text;--> statement-breakpoint
CREATE INDEX "analytics_hourly_workspace" ON "analytics_hourly" USING btree ("workspace_id","hour");--> statement-breakpoint
CREATE INDEX "analytics_hourly_key" ON "analytics_hourly" USING btree ("key_hash","hour");--> statement-breakpoint
CREATE INDEX "api_key_previous_hashes_key" ON "api_key_previous_hashes" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "refused_requests_time" ON "refused_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "refused_requests_workspace_time" ON "refused_requests" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "refused_requests_key_time" ON "refused_requests" USING btree ("key_hash","created_at","id");--> statement-breakpoint
CREATE INDEX "refused_requests_status_time" ON "refused_requests" USING btree ("status","created_at","id");