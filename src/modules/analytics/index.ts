import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { AnalyticsMetaResponse, AnalyticsQueryBody, AnalyticsQueryResponse } from "./model";
import { analyticsMeta, queryAnalytics } from "./service";

export function analyticsRoutes(ctx: AppContext) {
  return routeModule("analytics", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/analytics/meta", () => analyticsMeta(), {
      auth: "management",
      response: AnalyticsMetaResponse,
      detail: { tags: ["Analytics"], summary: "The metrics, dimensions, filter operators and granularities of the analytics query" },
    })
    .post("/analytics/query", ({ body }) => queryAnalytics(ctx, body), {
      auth: "management",
      body: AnalyticsQueryBody,
      response: AnalyticsQueryResponse,
      detail: {
        tags: ["Analytics"],
        summary: "Metrics over the generations, grouped by up to 2 dimensions and a time granularity, filtered",
        description:
          "Answered from hourly counters kept with every generation (a failed one is a request with cost 0), so a time range widens to whole UTC hours. " +
          "time_range defaults to the last 7 days; at most 366 days, 31 with granularity hour. api_key_id, workspace and user answer names; filters take ids " +
          "(a key's hash or number, a workspace's id or slug, a user's id). p50/p90/p95/p99 latencies are read from a latency histogram: estimates within one bucket.",
      },
    });
}
