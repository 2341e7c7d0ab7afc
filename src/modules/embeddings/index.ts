import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { requestShape } from "../../http/request-shape";
import { EmbeddingsBody, EmbeddingsResponse } from "./model";
import { createEmbeddings } from "./service";

export function embeddingRoutes(ctx: AppContext) {
  return routeModule("embeddings", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/embeddings",
      async ({ body, principal, request, set }) => {
        const out = await createEmbeddings(ctx, principal, body, requestShape(request));
        Object.assign(set.headers, out.headers);
        return out.body;
      },
      {
        auth: "inference",
        body: EmbeddingsBody,
        response: EmbeddingsResponse,
        detail: { tags: ["Embeddings"], summary: "Create embeddings (OpenAI format; float or base64 vectors)" },
      },
    );
}
