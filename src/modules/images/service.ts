import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import type { RequestShape } from "../../gateway/generation";
import type { Principal } from "../../http/principal";
import { mediaCatalogOf } from "../../media/build-media-catalog";
import { checkImageRequest, pricePerImage, variantFor } from "../../media/image-request";
import type { ImageEndpoint } from "../../media/media-catalog";
import { imageContent } from "../../media/media-content";
import { beforeAdmission, capturedText, costOf, mediaEnd, openMediaGeneration, startMediaRequest, usdOf } from "../../media/media-generation";
import { mediaCandidates } from "../../media/media-route";
import { promptInput } from "../../observability/capture/request-content";
import { outboundOptionsOf } from "../../outbound/policy";
import type { ImageGenerationRequestBody, ImageGenerationResult } from "./model";
import { imagesOperation } from "./operation";

const MEDIA_TYPES: Readonly<Record<string, string>> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };

/** The image model, or 404 (a model of another kind too). */
export function imageModel(ctx: Pick<AppContext, "config">, id: string) {
  const model = mediaCatalogOf(ctx.config).get("image", id);
  if (!model) throw new GatewayError(404, `Model ${id} is not an image model of this gateway (see GET /api/v1/images/models)`, { field: "model" });
  return model;
}

/**
 * POST /images: an operation of the generation lifecycle over the model's openai-images
 * endpoints. n images of the asked variant at the dearest candidate's price are reserved; the
 * images returned are charged at the serving endpoint's price; one record with api_type "image".
 */
export async function createImages(
  ctx: AppContext,
  principal: Principal,
  body: ImageGenerationRequestBody,
  http: RequestShape,
): Promise<{ body: ImageGenerationResult; headers: Record<string, string> }> {
  const start = startMediaRequest(ctx);
  const { model, candidates } = await beforeAdmission(start, async () => {
    const model = imageModel(ctx, body.model);
    const taking = checkImageRequest(body, model);
    return { model, candidates: await mediaCandidates(ctx, principal, { ...model, endpoints: taking }, body.provider ?? {}) };
  });
  const n = body.n ?? 1;
  const priceOf = (e: ImageEndpoint) => pricePerImage(e, variantFor(e, body).key);
  const { prompt, ...parameters } = body;
  const generation = await openMediaGeneration(ctx, start, {
    apiType: "image",
    operation: "image",
    principal,
    http,
    model,
    body,
    candidates,
    worstCase: (c) => n * priceOf(c.endpoint),
    input: () => promptInput(prompt, parameters),
    content: imageContent(body),
  });

  // what goes upstream: the prompt as the guardrails' content filters left it
  const attempted = await generation.attempt(imagesOperation(generation.request ?? body, ctx.config.routing.firstByteTimeoutMs, outboundOptionsOf(ctx)));
  if (!attempted.ok) throw await generation.fail(attempted);

  const { value, candidate } = attempted;
  const mediaType = MEDIA_TYPES[body.output_format ?? "png"] ?? "image/png";
  const cost = costOf(value.images.length * priceOf(candidate.endpoint), "completion");
  const output = generation.facts.observe ? capturedText(value.images.map((b64) => `data:${mediaType};base64,${b64}`).join("\n")) : null;
  await generation.settle(
    attempted,
    mediaEnd(cost, { tokens: { input: value.inputTokens, output: value.outputTokens }, mediaCount: value.images.length, output }),
  );
  return {
    body: {
      id: start.id,
      created: value.created ?? Math.floor(start.startedAt / 1000),
      data: value.images.map((b64_json) => ({ b64_json, media_type: mediaType })),
      usage: {
        prompt_tokens: value.inputTokens,
        completion_tokens: value.outputTokens,
        total_tokens: value.inputTokens + value.outputTokens,
        cost: usdOf(cost),
      },
    },
    headers: start.idHeader,
  };
}
