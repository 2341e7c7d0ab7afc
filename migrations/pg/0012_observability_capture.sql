CREATE TABLE "generation_contents" (
	"generation_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "observation_outbox" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "observation_outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"generation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "generation_contents_created" ON "generation_contents" USING btree ("created_at");