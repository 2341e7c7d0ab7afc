import { t } from "elysia";
import { JsonInteger } from "../../formats/shared-schema";
import { mediaCallerFields } from "../../media/request-fields";

/** @openrouter/sdk 1.3.19 CreateRerankRequestBody and CreateRerankResponseBody (snake_case on the wire). */
export const RerankBody = t.Object(
  {
    model: t.String({ minLength: 1 }),
    query: t.String(),
    documents: t.Array(t.Union([t.String(), t.Object({ text: t.Optional(t.String()), image: t.Optional(t.String()) })])),
    top_n: t.Optional(JsonInteger()),
    ...mediaCallerFields,
  },
  { additionalProperties: true },
);

export const RerankResponse = t.Object({
  id: t.String(),
  model: t.String(),
  provider: t.String(),
  results: t.Array(t.Object({ index: t.Integer(), relevance_score: t.Number(), document: t.Object({ text: t.String() }) })),
  usage: t.Object({ search_units: t.Number(), cost: t.Number() }),
});

export type RerankRequestBody = typeof RerankBody.static;
export type RerankResult = typeof RerankResponse.static;
