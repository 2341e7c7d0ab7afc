import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { JobParams, JobResponse, JobStatsResponse, ListJobsQuery, ListJobsResponse, RetryJobBody } from "./model";
import { getJob, jobStats, listJobs, retryJob } from "./service";

const tags = ["Jobs"];

/** The background job queue, for operators: management keys only. */
export function jobRoutes(ctx: AppContext) {
  return routeModule("jobs", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/jobs", ({ query }) => listJobs(ctx.store.jobs, query), {
      auth: "management",
      query: ListJobsQuery,
      response: ListJobsResponse,
      detail: { tags, summary: "List background jobs, newest first (state=dead: those that ran out of attempts)" },
    })
    .get("/jobs/stats", () => jobStats(ctx.store.jobs, ctx.clock()), {
      auth: "management",
      response: JobStatsResponse,
      detail: { tags, summary: "Queue depth by kind and state, attempts by outcome, age of the oldest waiting job" },
    })
    .get("/jobs/:id", ({ params }) => getJob(ctx.store.jobs, params.id), {
      auth: "management",
      params: JobParams,
      response: JobResponse,
      detail: { tags, summary: "Get a background job" },
    })
    .post("/jobs/:id/retry", ({ params }) => retryJob(ctx.store.jobs, params.id, ctx.clock()), {
      auth: "management",
      params: JobParams,
      body: RetryJobBody,
      response: JobResponse,
      detail: { tags, summary: "Run a dead job again now, with a fresh set of attempts" },
    });
}
