CREATE TABLE "response_items" (
	"response_id" text NOT NULL,
	"position" integer NOT NULL,
	"workspace_id" text NOT NULL,
	"item_id" text,
	"item" text NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "response_items_response_id_position_pk" PRIMARY KEY("response_id","position")
);
--> statement-breakpoint
CREATE TABLE "stored_responses" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"input" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "response_items_item" ON "response_items" USING btree ("workspace_id","item_id");--> statement-breakpoint
CREATE INDEX "response_items_expiry" ON "response_items" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_responses_expiry" ON "stored_responses" USING btree ("expires_at");