import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { requestShape } from "../../http/request-shape";
import { mediaCatalogOf } from "../../media/build-media-catalog";
import { ImageEndpointsResponse, ImageGenerationBody, ImageGenerationResponse, ImageModelParams, ImageModelsResponse } from "./model";
import { presentImageEndpoints, presentImageModel } from "./present";
import { createImages, imageModel } from "./service";

export function imageRoutes(ctx: AppContext) {
  return (
    routeModule("images", "/api/v1")
      .use(authPlugin(ctx.store, ctx.clock))
      // public, like /models
      .get("/images/models", () => ({ data: mediaCatalogOf(ctx.config).models("image").map(presentImageModel) }), {
        response: ImageModelsResponse,
        detail: { tags: ["Images"], summary: "List image generation models with the parameters they take" },
      })
      .get("/images/models/:author/:slug/endpoints", ({ params }) => presentImageEndpoints(imageModel(ctx, `${params.author}/${params.slug}`)), {
        params: ImageModelParams,
        response: ImageEndpointsResponse,
        detail: { tags: ["Images"], summary: "An image model's endpoints with their parameters and prices per image" },
      })
      .post(
        "/images",
        async ({ body, principal, request, set }) => {
          const out = await createImages(ctx, principal, body, requestShape(request));
          Object.assign(set.headers, out.headers);
          return out.body;
        },
        {
          auth: "inference",
          body: ImageGenerationBody,
          response: ImageGenerationResponse,
          detail: { tags: ["Images"], summary: "Generate images (answered as JSON with base64 images; stream is not supported)" },
        },
      )
  );
}
