CREATE TABLE "observability_destinations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"privacy_mode" boolean DEFAULT false NOT NULL,
	"sampling_rate" double precision DEFAULT 1 NOT NULL,
	"regions" text DEFAULT '["global"]' NOT NULL,
	"api_key_hashes" text,
	"filter_rules" text,
	"broadcast_generation_cost" boolean DEFAULT false NOT NULL,
	"broadcast_generation_identity" boolean DEFAULT false NOT NULL,
	"broadcast_generation_request_context" boolean DEFAULT false NOT NULL,
	"config" text NOT NULL,
	"sealed_config" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE INDEX "observability_destinations_workspace_type" ON "observability_destinations" USING btree ("workspace_id","type");