import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import {
  CountQuery,
  ListEndpointsResponse,
  ListEndpointsZdrResponse,
  ListModelsQuery,
  ListProvidersResponse,
  Model,
  ModelIdParams,
  ModelPathParams,
  ModelResponse,
  ModelsCountResponse,
  ModelsListResponse,
  PageQuery,
  UserModelsQuery,
} from "./model";
import {
  countModels,
  getModel,
  getModelById,
  listEmbeddingModels,
  listEndpoints,
  listModels,
  listProviders,
  listUserModels,
  listZdrEndpoints,
  modelsRssResponse,
} from "./service";

const tags = ["Models"];

/** The catalog: public like OpenRouter's, except /models/user, which depends on the caller. */
export function modelRoutes(ctx: AppContext) {
  return (
    routeModule("models", "/api/v1")
      .use(authPlugin(ctx.store, ctx.clock))
      .get(
        "/models",
        // the RSS feed is a raw Response beside the JSON schema the route declares for the listing
        async ({ query, request }) =>
          query.use_rss ? ((await modelsRssResponse(ctx, query, request.url, ctx.clock())) as never) : await listModels(ctx, query, request.url),
        {
          query: ListModelsQuery,
          response: ModelsListResponse,
          detail: { tags, summary: "List models (JSON, or an RSS 2.0 feed with use_rss=true)" },
        },
      )
      .get("/models/count", async ({ query }) => ({ data: { count: await countModels(ctx, query.output_modalities) } }), {
        query: CountQuery,
        response: ModelsCountResponse,
        detail: { tags, summary: "Number of models" },
      })
      .get("/models/user", async ({ query, principal, request }) => await listUserModels(ctx, principal, query, request.url), {
        auth: "any",
        query: UserModelsQuery,
        response: ModelsListResponse,
        detail: { tags, summary: "Models the caller's workspace can use (credentials present, provider preferences applied)" },
      })
      .get("/model/:author/:slug", ({ params }) => ({ data: getModel(ctx, params.author, params.slug) }), {
        params: ModelPathParams,
        response: ModelResponse,
        detail: { tags, summary: "One model" },
      })
      // the openai SDK's models.retrieve("author/slug") sends the id as one segment: /models/author%2Fslug.
      // The router names this segment as /models/:author/:slug/endpoints does; here it holds the whole id.
      .get("/models/:author", ({ params }) => getModelById(ctx, params.author), {
        params: ModelIdParams,
        response: Model,
        detail: {
          tags,
          summary:
            "One model by its full id as one path segment (author%2Fslug), as the OpenAI SDK's models.retrieve asks; the model itself, unwrapped, like an item of /models",
        },
      })
      .get("/models/:author/:slug/endpoints", ({ params }) => ({ data: listEndpoints(ctx, params.author, params.slug) }), {
        params: ModelPathParams,
        response: ListEndpointsResponse,
        detail: { tags: ["Endpoints"], summary: "Endpoints of a model, with live latency, throughput and uptime" },
      })
      .get("/endpoints/zdr", () => ({ data: listZdrEndpoints(ctx) }), {
        response: ListEndpointsZdrResponse,
        detail: { tags: ["Endpoints"], summary: "Endpoints of zero-data-retention providers" },
      })
      .get("/embeddings/models", ({ query, request }) => listEmbeddingModels(ctx, query, request.url), {
        query: PageQuery,
        response: ModelsListResponse,
        detail: { tags: ["Embeddings"], summary: "Embedding models" },
      })
      .get("/providers", () => ({ data: listProviders(ctx) }), {
        response: ListProvidersResponse,
        detail: { tags: ["Providers"], summary: "Providers in the catalog" },
      })
  );
}
