CREATE TABLE "generation_contents" (
	"generation_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "generation_contents_created" ON "generation_contents" USING btree ("created_at");