import { index, millis, table, text } from "./kit";

/**
 * What I/O logging keeps of a generation (src/store/generation-content-store.ts): its prompt and
 * completion as one JSON document sealed with the secret box, written in the transaction of the
 * generation record and deleted after `io_logging.retention_days` (`generation_contents_created`).
 */
export const generationContents = table(
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
