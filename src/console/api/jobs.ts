import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { JobParams, ListJobsQuery } from "../../modules/jobs/model";
import { listJobs, retryJob } from "../../modules/jobs/service";
import { presentVideoJob } from "../../videos/present";
import { requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

/**
 * Background work: the job queue (dead jobs and their retry: managers, through the services of
 * /api/v1/jobs) and a workspace's video jobs (its members too).
 */
export function consoleJobRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-jobs", ctx.store, sessions)
    .get(
      "/jobs",
      ({ query }) => {
        return listJobs(ctx.store.jobs, query);
      },
      { auth: "session:manager", query: ListJobsQuery },
    )
    .post(
      "/jobs/:id/retry",
      ({ params }) => {
        return retryJob(ctx.store.jobs, params.id, ctx.clock());
      },
      { auth: "session:manager", params: JobParams },
    )
    .get(
      "/videos",
      async ({ viewer, query, request }) => {
        requireWorkspace(viewer, query.workspace_id);
        const jobs = await ctx.store.videoJobs.list(query.workspace_id, query.offset ?? 0, 50);
        const origin = new URL(request.url).origin;
        return {
          data: jobs.map((j) => ({ ...presentVideoJob(j, origin), model: j.model, key_hash: j.keyHash, created_at: new Date(j.createdAt).toISOString() })),
        };
      },
      { auth: "session", query: t.Object({ workspace_id: t.String({ minLength: 1 }), offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000 })) }) },
    );
}
