import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { videoCatalogOf } from "../../videos/video-catalog-of";
import { videoContent } from "./content";
import { ContentQuery, JobParams, VideoGenerationRequest, VideoGenerationResponse, VideoModelsResponse } from "./model";
import { presentVideoModel } from "./present-models";
import { createVideo, getVideo } from "./service";

const originOf = (request: Request) => new URL(request.url).origin;

export function videoRoutes(ctx: AppContext) {
  return routeModule("videos", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/videos/models", () => ({ data: videoCatalogOf(ctx.config).models().map(presentVideoModel) }), {
      auth: "any",
      response: VideoModelsResponse,
      detail: { tags: ["Videos"], summary: "List video generation models with their capabilities and prices" },
    })
    .post(
      "/videos",
      async ({ body, principal, request, set }) => {
        set.status = 202;
        return createVideo(ctx, principal, body, request);
      },
      {
        auth: "inference",
        body: VideoGenerationRequest,
        response: { 202: VideoGenerationResponse },
        detail: {
          tags: ["Videos"],
          summary: "Submit a video generation job",
          description: "Answers 202 with the job's id and polling_url; the job runs in the background (poll it, or receive a webhook at callback_url).",
        },
      },
    )
    .get("/videos/:jobId", ({ params, principal, request }) => getVideo(ctx, principal, params.jobId, originOf(request)), {
      auth: "inference",
      params: JobParams,
      response: VideoGenerationResponse,
      detail: { tags: ["Videos"], summary: "Status of a video generation job" },
    })
    .get(
      "/videos/:jobId/content",
      ({ params, query, principal, request }) => videoContent(ctx, principal, params.jobId, query.index ?? 0, request.headers.get("range")),
      {
        auth: "inference",
        params: JobParams,
        query: ContentQuery,
        detail: {
          tags: ["Videos"],
          summary: "Download a generated video (video/mp4; Range requests supported)",
          responses: {
            200: { description: "The whole video", content: { "video/mp4": { schema: { type: "string", format: "binary" } } } },
            206: { description: "The requested byte range", content: { "video/mp4": { schema: { type: "string", format: "binary" } } } },
          } as never,
        },
      },
    );
}
