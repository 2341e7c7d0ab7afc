import { t } from "elysia";
import { mediaCallerFields } from "../../media/request-fields";

/**
 * @openrouter/sdk 1.3.19 STTRequest (the JSON body; a multipart upload carries the same fields
 * with `file` in place of `input_audio`) and STTResponse. The audio's format, the answer format
 * and the granularities are checked against the model, so a 400 can list what it takes.
 */
export const TranscriptionJsonBody = t.Object(
  {
    model: t.String({ minLength: 1 }),
    input_audio: t.Optional(t.Nullable(t.Object({ data: t.Optional(t.Unknown()), format: t.Optional(t.Unknown()) }, { additionalProperties: true }))),
    language: t.Optional(t.String()),
    response_format: t.Optional(t.String()),
    temperature: t.Optional(t.Number()),
    timestamp_granularities: t.Optional(t.Array(t.String())),
    ...mediaCallerFields,
  },
  { additionalProperties: true },
);

export const TranscriptionResponse = t.Object(
  {
    text: t.String(),
    usage: t.Object({ seconds: t.Number(), cost: t.Number() }),
    task: t.Optional(t.Unknown()),
    language: t.Optional(t.Unknown()),
    duration: t.Optional(t.Unknown()),
    segments: t.Optional(t.Unknown()),
    words: t.Optional(t.Unknown()),
  },
  { additionalProperties: false },
);

export type TranscriptionResult = typeof TranscriptionResponse.static;
