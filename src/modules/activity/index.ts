import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { ActivityQuery, ActivityResponse } from "./model";
import { getActivity } from "./service";

export function activityRoutes(ctx: AppContext) {
  return routeModule("activity", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/activity", ({ query }) => getActivity(ctx, query), {
      auth: "management",
      query: ActivityQuery,
      response: ActivityResponse,
      detail: {
        tags: ["Analytics"],
        summary: "Spend, requests and tokens per day, model and endpoint over the last 30 UTC days",
        description:
          "From counters kept with every served generation; today (UTC) is included as counted so far. Optional filters: date (one UTC day of the 30, YYYY-MM-DD), " +
          "api_key_hash, user_id, workspace_id (UUID or slug); group_by=workspace splits each row per workspace and adds workspace_id. usage is USD charged, " +
          "byok_usage_inference the cost of BYOK requests (paid to the provider directly). Newest day first.",
      },
    });
}
