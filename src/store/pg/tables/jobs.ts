import { pgTable, text, integer, bigint, boolean, index, uniqueIndex, primaryKey } from "drizzle-orm/pg-core";
import { millis, nanos } from "./column-types";

/** Background work: the job queue, its outcome counters, video generation jobs. */

/** The job queue; see ../../sqlite/tables/jobs.ts. */
export const jobs = pgTable(
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

/** Finished attempts by kind and outcome; see ../../sqlite/tables/jobs.ts. */
export const jobOutcomes = pgTable(
  "job_outcomes",
  {
    kind: text("kind").notNull(),
    outcome: text("outcome", { enum: ["succeeded", "failed", "dead"] }).notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.kind, table.outcome] })],
);

/** Video generation jobs (src/store/video-job-store.ts); JSON-bearing columns are text. */
export const videoJobs = pgTable(
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
