import { pgTable, text, index } from "drizzle-orm/pg-core";
import { millis } from "./column-types";

/** What I/O logging keeps of a generation; see ../../sqlite/tables/generation-contents.ts. */
export const generationContents = pgTable(
  "generation_contents",
  {
    generationId: text("generation_id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    sealed: text("sealed").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (table) => [index("generation_contents_created").on(table.createdAt)],
);
