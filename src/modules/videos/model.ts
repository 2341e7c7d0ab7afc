import { t } from "elysia";

/** OpenRouter's VideoGenerationRequest, VideoGenerationResponse and VideoModel (its OpenAPI spec in OpenRouterTeam/typescript-sdk) */

export { VideoGenerationRequest, type VideoGenerationRequestBody } from "../../videos/request-schema";

const VideoStatus = t.UnionEnum(["pending", "in_progress", "completed", "failed", "cancelled", "expired"]);

export const VideoGenerationResponse = t.Object({
  id: t.String(),
  polling_url: t.String(),
  status: VideoStatus,
  generation_id: t.Optional(t.String()),
  unsigned_urls: t.Optional(t.Array(t.String())),
  usage: t.Optional(t.Object({ cost: t.Nullable(t.Number()), is_byok: t.Boolean() })),
  error: t.Optional(t.String()),
});

export type VideoGenerationResponseBody = typeof VideoGenerationResponse.static;

const Strings = t.Nullable(t.Array(t.String()));

export const VideoModel = t.Object({
  id: t.String(),
  canonical_slug: t.String(),
  name: t.String(),
  created: t.Integer(),
  description: t.Optional(t.String()),
  hugging_face_id: t.Nullable(t.String()),
  allowed_passthrough_parameters: t.Array(t.String()),
  supported_durations: t.Nullable(t.Array(t.Integer())),
  supported_resolutions: Strings,
  supported_aspect_ratios: Strings,
  supported_sizes: Strings,
  supported_frame_images: Strings,
  generate_audio: t.Nullable(t.Boolean()),
  seed: t.Nullable(t.Boolean()),
  creativity: t.Nullable(t.Array(t.Integer())),
  upscale_factor: t.Nullable(t.Object({ min: t.Optional(t.Number()), max: t.Optional(t.Number()) })),
  pricing_skus: t.Nullable(t.Record(t.String(), t.String())),
});

export const VideoModelsResponse = t.Object({ data: t.Array(VideoModel) });

export const JobParams = t.Object({ jobId: t.String({ minLength: 1 }) });
export const ContentQuery = t.Object({ index: t.Optional(t.Integer({ minimum: 0 })) });
