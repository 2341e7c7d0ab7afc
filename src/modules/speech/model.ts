import { t } from "elysia";
import { mediaCallerFields } from "../../media/request-fields";

/** @openrouter/sdk 1.3.19 SpeechRequest (snake_case on the wire); the voice and format a model takes are checked against its endpoints. */
export const SpeechBody = t.Object(
  {
    model: t.String({ minLength: 1 }),
    input: t.String(),
    voice: t.Optional(t.String()),
    response_format: t.Optional(t.String()),
    speed: t.Optional(t.Number({ minimum: 0.25, maximum: 4 })),
    input_references: t.Optional(t.Array(t.Unknown())),
    ...mediaCallerFields,
  },
  { additionalProperties: true },
);

export type SpeechRequestBody = typeof SpeechBody.static;
