import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { ClearCacheQuery, ClearCacheResponse } from "./model";
import { clearResponseCache } from "./service";

/** The response cache, for operators: management keys only. */
export function cacheRoutes(ctx: AppContext) {
  return routeModule("cache", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .delete("/cache", ({ origin, query }) => clearResponseCache(ctx, origin, query.workspace_id), {
      auth: "management",
      query: ClearCacheQuery,
      response: ClearCacheResponse,
      detail: { tags: ["Cache"], summary: "Empty the response cache (one workspace's entries with workspace_id); answers how many entries went" },
    });
}
