CREATE TABLE "api_keys" (
	"hash" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"is_management" boolean NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"workspace_id" text NOT NULL,
	"creator_user_id" text,
	"external_user" text,
	"limit_nanos" bigint,
	"limit_reset" text,
	"include_byok_in_limit" boolean DEFAULT false NOT NULL,
	"expires_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "byok_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text,
	"provider" text NOT NULL,
	"name" text,
	"label" text NOT NULL,
	"encrypted_key" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"is_fallback" boolean DEFAULT false NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"is_byok_only" boolean DEFAULT false NOT NULL,
	"declared_zdr" boolean,
	"allowed_models" text,
	"allowed_user_ids" text,
	"allowed_api_key_hashes" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"api_type" text NOT NULL,
	"requested_model" text,
	"model" text NOT NULL,
	"provider_name" text,
	"endpoint_id" text,
	"upstream_id" text,
	"streamed" boolean NOT NULL,
	"cancelled" boolean NOT NULL,
	"finish_reason" text,
	"native_finish_reason" text,
	"tokens_prompt" integer,
	"tokens_completion" integer,
	"tokens_cached" integer,
	"tokens_cache_write" integer,
	"tokens_reasoning" integer,
	"usage_estimated" boolean DEFAULT false NOT NULL,
	"cost_nanos" bigint NOT NULL,
	"prompt_cost_nanos" bigint DEFAULT 0 NOT NULL,
	"completion_cost_nanos" bigint DEFAULT 0 NOT NULL,
	"is_byok" boolean DEFAULT false NOT NULL,
	"latency_ms" integer,
	"generation_time_ms" integer,
	"ttft_ms" integer,
	"attempts" text DEFAULT '[]' NOT NULL,
	"session_id" text,
	"external_user" text,
	"preset_id" text,
	"trace" text,
	"http_referer" text,
	"user_agent" text,
	"origin" text,
	"error_message" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "key_usage" (
	"hash" text PRIMARY KEY NOT NULL,
	"day_key" text NOT NULL,
	"week_key" text NOT NULL,
	"month_key" text NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"day" bigint DEFAULT 0 NOT NULL,
	"week" bigint DEFAULT 0 NOT NULL,
	"month" bigint DEFAULT 0 NOT NULL,
	"byok_total" bigint DEFAULT 0 NOT NULL,
	"byok_day" bigint DEFAULT 0 NOT NULL,
	"byok_week" bigint DEFAULT 0 NOT NULL,
	"byok_month" bigint DEFAULT 0 NOT NULL,
	"held" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preset_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"preset_id" text NOT NULL,
	"version" integer NOT NULL,
	"config" text NOT NULL,
	"system_prompt" text,
	"creator_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "preset_versions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "presets" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_updated_at" bigint,
	"designated_version_id" text,
	"creator_user_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"amount_nanos" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"instance_id" text DEFAULT '' NOT NULL,
	"expires_at" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text,
	"name" text,
	"role" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "workspace_members_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"default_text_model" text,
	"default_image_model" text,
	"default_provider_sort" text,
	"settings" text DEFAULT '{}' NOT NULL,
	"created_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint
);
--> statement-breakpoint
CREATE INDEX "api_keys_workspace" ON "api_keys" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "byok_workspace_provider" ON "byok_credentials" USING btree ("workspace_id","provider");--> statement-breakpoint
CREATE INDEX "generations_key_time" ON "generations" USING btree ("key_hash","created_at");--> statement-breakpoint
CREATE INDEX "generations_endpoint_time" ON "generations" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "preset_versions_preset_version" ON "preset_versions" USING btree ("preset_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "presets_workspace_slug" ON "presets" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE INDEX "reservations_key" ON "reservations" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "reservations_instance" ON "reservations" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "reservations_expiry" ON "reservations" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workspaces_slug_unique" ON "workspaces" USING btree ("slug");