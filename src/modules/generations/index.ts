import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { GenerationQuery, GenerationResponse } from "./model";
import { getGeneration } from "./service";

export function generationRoutes(ctx: AppContext) {
  return routeModule("generations", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/generation", async ({ query, principal }) => ({ data: await getGeneration(ctx.store, principal, query.id, ctx.generations) }), {
      auth: "any",
      query: GenerationQuery,
      response: GenerationResponse,
      detail: { tags: ["Generations"], summary: "Metadata of one generation" },
    });
}
