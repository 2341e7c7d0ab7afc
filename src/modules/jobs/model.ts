import { t } from "elysia";

export const JobStateField = t.Union([t.Literal("pending"), t.Literal("running"), t.Literal("done"), t.Literal("dead")]);

export const ListJobsQuery = t.Object({
  state: t.Optional(JobStateField),
  kind: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500 })),
});

/** A retry takes nothing: the job runs again with the payload it was enqueued with. */
export const RetryJobBody = t.Optional(t.Object({}, { additionalProperties: false }));

export const JobParams = t.Object({ id: t.String({ minLength: 1, maxLength: 200 }) });

export const JobData = t.Object({
  id: t.String(),
  kind: t.String(),
  key: t.Nullable(t.String()),
  payload: t.Unknown(),
  state: JobStateField,
  run_at: t.String({ description: "when it is (or was) due" }),
  attempts: t.Integer({ description: "attempts made, the running one included" }),
  lease_owner: t.Nullable(t.String()),
  lease_expires_at: t.Nullable(t.String()),
  last_error: t.Nullable(t.String()),
  created_at: t.String(),
  updated_at: t.String(),
});

export const JobResponse = t.Object({ data: JobData });
export const ListJobsResponse = t.Object({ data: t.Array(JobData), total_count: t.Integer() });

export const JobStatsResponse = t.Object({
  data: t.Object({
    queues: t.Array(t.Object({ kind: t.String(), state: JobStateField, count: t.Integer() })),
    outcomes: t.Array(
      t.Object({
        kind: t.String(),
        outcome: t.Union([t.Literal("succeeded"), t.Literal("failed"), t.Literal("dead")], { description: "failed: retried later; dead: no attempt left" }),
        count: t.Integer(),
      }),
    ),
    oldest_pending: t.Array(t.Object({ kind: t.String(), age_seconds: t.Number({ description: "how long the oldest due job of the kind has waited" }) })),
    oldest_pending_age_seconds: t.Number({ description: "the largest of oldest_pending (0: nothing waits)" }),
  }),
});
