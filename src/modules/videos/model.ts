import { t } from "elysia";
import { SessionId, Trace, User } from "../../formats/shared-schema";

/** OpenRouter's VideoGenerationRequest, VideoGenerationResponse and VideoModel (its OpenAPI spec in OpenRouterTeam/typescript-sdk) */

const UrlObject = t.Object({ url: t.String({ minLength: 1 }) });

export const FrameImage = t.Object({ type: t.Literal("image_url"), image_url: UrlObject, frame_type: t.Union([t.Literal("first_frame"), t.Literal("last_frame")]) });

export const InputReference = t.Union([
  t.Object({ type: t.Literal("image_url"), image_url: UrlObject }),
  t.Object({ type: t.Literal("audio_url"), audio_url: UrlObject }),
  t.Object({ type: t.Literal("video_url"), video_url: UrlObject }),
]);

export const VideoGenerationRequest = t.Object(
  {
    model: t.String({ minLength: 1 }),
    prompt: t.Optional(t.String()),
    // open strings here: each is checked against the model's own lists, which the 400 names
    aspect_ratio: t.Optional(t.String()),
    resolution: t.Optional(t.String()),
    size: t.Optional(t.String()),
    duration: t.Optional(t.Integer({ minimum: 1 })),
    seed: t.Optional(t.Integer()),
    generate_audio: t.Optional(t.Boolean()),
    frame_images: t.Optional(t.Array(FrameImage)),
    input_references: t.Optional(t.Array(InputReference)),
    previous_job_id: t.Optional(t.String()),
    callback_url: t.Optional(t.String({ minLength: 1 })),
    creativity: t.Optional(t.Integer()),
    upscale_factor: t.Optional(t.Number({ exclusiveMinimum: 0 })),
    provider: t.Optional(t.Object({ options: t.Optional(t.Record(t.String(), t.Record(t.String(), t.Unknown()))) }, { additionalProperties: false })),
    session_id: t.Optional(SessionId),
    user: t.Optional(User),
    trace: t.Optional(Trace),
  },
  { additionalProperties: false },
);

export type VideoGenerationRequestBody = typeof VideoGenerationRequest.static;

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
