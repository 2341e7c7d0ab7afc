import { index, integer, millis, table, text } from "./kit";

/**
 * The response cache (src/store/response-cache-store.ts): one answer per key, the key a digest of
 * the workspace and the request. Written in the transaction of the generation record that made the
 * answer; read while unexpired; deleted by the recurring purge once `expires_at` has passed.
 */
export const responseCache = table(
  "response_cache",
  {
    key: text("key").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    /** the generation whose answer this is (a hit's `response_cache_source_id`) */
    generationId: text("generation_id").notNull(),
    /** the answer as JSON (src/gateway/response-cache/cached-answer.ts) */
    answer: text("answer").notNull(),
    /** UTF-8 length of `answer`, summed for the metrics */
    bytes: integer("bytes").notNull(),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  // no index on workspace_id: emptying one workspace (an operator's DELETE) may scan, while every
  // index is written again by each miss's commit (measured on SQLite: about 35 µs a commit with both)
  (table) => [index("response_cache_expiry").on(table.expiresAt)],
);
