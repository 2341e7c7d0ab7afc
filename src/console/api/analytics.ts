import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { AnalyticsQueryBody } from "../../modules/analytics/model";
import { analyticsMeta, queryAnalytics } from "../../modules/analytics/service";
import { visibleWorkspaces } from "../permissions";
import { consoleApiModule } from "./route-module";

/**
 * The analytics API's own queries (/api/v1/analytics/*) for a signed-in viewer: managers read the
 * whole organization, a member the workspaces they belong to (every query is narrowed to them).
 */
export function consoleAnalyticsRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-analytics", ctx.store, sessions)
    .get("/analytics/meta", () => analyticsMeta(), { auth: "session" })
    .post("/analytics/query", ({ viewer, body }) => queryAnalytics(ctx, body, { workspaceIds: visibleWorkspaces(viewer) }), {
      auth: "session",
      body: AnalyticsQueryBody,
    });
}
