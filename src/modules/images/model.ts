import { t } from "elysia";
import { JsonInteger } from "../../formats/shared-schema";
import { mediaCallerFields } from "../../media/request-fields";

/**
 * @openrouter/sdk 1.3.19: ImageGenerationRequest, ImageGenerationResponse, ImageModelsListResponse,
 * ImageModelEndpointsResponse (snake_case on the wire). Values a model may or may not take (size,
 * quality, n, ...) are checked against its endpoints, so the 400 can list what it takes.
 */
export const ImageGenerationBody = t.Object(
  {
    model: t.String({ minLength: 1 }),
    prompt: t.String(),
    n: t.Optional(JsonInteger()),
    size: t.Optional(t.String()),
    quality: t.Optional(t.String()),
    aspect_ratio: t.Optional(t.String()),
    resolution: t.Optional(t.String()),
    output_format: t.Optional(t.String()),
    output_compression: t.Optional(JsonInteger({ minimum: 0, maximum: 100 })),
    background: t.Optional(t.String()),
    seed: t.Optional(JsonInteger()),
    // answered as JSON: no upstream of the gateway streams partial images
    stream: t.Optional(t.Boolean()),
    input_references: t.Optional(t.Array(t.Unknown())),
    // OpenAI's own spelling of the answer's form: never sent, the answer is always base64
    response_format: t.Optional(t.String()),
    ...mediaCallerFields,
  },
  { additionalProperties: true },
);

export const ImageGenerationResponse = t.Object({
  id: t.String(),
  created: t.Integer(),
  data: t.Array(t.Object({ b64_json: t.String(), media_type: t.String() })),
  usage: t.Object({ prompt_tokens: t.Integer(), completion_tokens: t.Integer(), total_tokens: t.Integer(), cost: t.Number() }),
});

const Capability = t.Union([
  t.Object({ type: t.Literal("enum"), values: t.Array(t.String()) }),
  t.Object({ type: t.Literal("range"), min: t.Number(), max: t.Number() }),
  t.Object({ type: t.Literal("boolean") }),
]);
const Capabilities = t.Record(t.String(), Capability);

export const ImageModelsResponse = t.Object({
  data: t.Array(
    t.Object({
      id: t.String(),
      name: t.String(),
      description: t.String(),
      created: t.Integer(),
      architecture: t.Object({ input_modalities: t.Array(t.String()), output_modalities: t.Array(t.String()) }),
      endpoints: t.String(),
      supported_parameters: Capabilities,
      supports_streaming: t.Boolean(),
    }),
  ),
});

export const ImageEndpointsResponse = t.Object({
  id: t.String(),
  endpoints: t.Array(
    t.Object({
      provider_name: t.String(),
      provider_slug: t.String(),
      provider_tag: t.Nullable(t.String()),
      supported_parameters: Capabilities,
      pricing: t.Array(t.Object({ billable: t.String(), unit: t.String(), cost_usd: t.Number(), variant: t.Optional(t.String()) })),
      allowed_passthrough_parameters: t.Array(t.String()),
      supports_streaming: t.Boolean(),
    }),
  ),
});

export const ImageModelParams = t.Object({ author: t.String({ minLength: 1 }), slug: t.String({ minLength: 1 }) });

export type ImageGenerationRequestBody = typeof ImageGenerationBody.static;
export type ImageGenerationResult = typeof ImageGenerationResponse.static;
