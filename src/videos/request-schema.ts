import { t } from "elysia";
import { SessionId, Trace, User } from "../formats/shared-schema";

/**
 * The body of POST /api/v1/videos (OpenRouter's VideoGenerationRequest). It sits here, beside the
 * validation that reads it (validate-request.ts), rather than in the route module: src/videos/ is
 * below src/modules/ (docs/architecture.md, "Layers").
 */

const UrlObject = t.Object({ url: t.String({ minLength: 1 }) });

export const FrameImage = t.Object({
  type: t.Literal("image_url"),
  image_url: UrlObject,
  frame_type: t.Union([t.Literal("first_frame"), t.Literal("last_frame")]),
});

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
