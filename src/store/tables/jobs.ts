import { boolean, index, int8, integer, millis, nanos, primaryKey, table, text, uniqueIndex } from "./kit";

/** Background work: the job queue, its outcome counters, video generation jobs. */

/**
 * The durable job queue (outbox; src/store/job-store.ts). `key` is unique when set, so a job
 * enqueued twice under one key is stored once. Leasing reads `jobs_due` (state, run_at, id) in order, and a
 * running job whose lease ended is due again (`jobs_lease`).
 */
export const jobs = table(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    key: text("key"),
    /** JSON */
    payload: text("payload").notNull(),
    state: text("state", { enum: ["pending", "running", "done", "dead"] }).notNull(),
    runAt: millis("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: millis("lease_expires_at"),
    lastError: text("last_error"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("jobs_key_unique").on(table.key),
    index("jobs_due").on(table.state, table.runAt, table.id),
    index("jobs_lease").on(table.state, table.leaseExpiresAt),
    index("jobs_created").on(table.createdAt),
  ],
);

/** Finished attempts by kind and outcome (succeeded, failed, dead), counted in the statement that records each. */
export const jobOutcomes = table(
  "job_outcomes",
  {
    kind: text("kind").notNull(),
    outcome: text("outcome", { enum: ["succeeded", "failed", "dead"] }).notNull(),
    count: int8("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.kind, table.outcome] })],
);

/** Video generation jobs (src/store/video-job-store.ts); JSON-bearing columns are text. */
export const videoJobs = table(
  "video_jobs",
  {
    id: text("id").primaryKey(),
    generationId: text("generation_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: text("user_id"),
    model: text("model").notNull(),
    status: text("status", { enum: ["pending", "in_progress", "completed", "failed", "cancelled", "expired"] }).notNull(),
    version: integer("version").notNull(),
    request: text("request").notNull(),
    callbackUrl: text("callback_url"),
    reservationId: text("reservation_id"),
    endpointId: text("endpoint_id"),
    upstreamRef: text("upstream_ref"),
    outputs: text("outputs").notNull(),
    costNanos: nanos("cost_nanos"),
    isByok: boolean("is_byok").notNull(),
    errorMessage: text("error_message"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
    deadlineAt: millis("deadline_at").notNull(),
    completedAt: millis("completed_at"),
  },
  (table) => [index("video_jobs_workspace").on(table.workspaceId, table.createdAt)],
);
