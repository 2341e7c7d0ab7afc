import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { requestShape } from "../../http/request-shape";
import { RerankBody, RerankResponse } from "./model";
import { rerank } from "./service";

export function rerankRoutes(ctx: AppContext) {
  return routeModule("rerank", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/rerank",
      async ({ body, principal, request, set }) => {
        const out = await rerank(ctx, principal, body, requestShape(request));
        Object.assign(set.headers, out.headers);
        return out.body;
      },
      {
        auth: "inference",
        body: RerankBody,
        response: RerankResponse,
        detail: { tags: ["Rerank"], summary: "Rank documents by relevance to a query (Cohere v2 rerank)" },
      },
    );
}
