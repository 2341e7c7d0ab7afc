import { t } from "elysia";
import { JsonInteger, ProviderPreferences, SessionId, Trace, User } from "../../formats/shared-schema";

/** OpenRouter's CreateEmbeddingsRequestBody / CreateEmbeddingsResponseBody (its OpenAPI spec) */

const ContentPart = t.Object({ type: t.String() }, { additionalProperties: true });

// Empty input (a list, a string, a token array, a content list) is a 400, as at OpenAI, whose
// input "cannot be an empty string": not a billed call that embeds nothing.
const NonEmpty = { minItems: 1 };
const Text = t.String({ minLength: 1 });

export const EmbeddingInput = t.Union([
  Text,
  t.Array(Text, NonEmpty),
  t.Array(t.Number(), NonEmpty),
  t.Array(t.Array(t.Number(), NonEmpty), NonEmpty),
  t.Array(t.Object({ content: t.Array(ContentPart, NonEmpty) }), NonEmpty),
]);

export const EmbeddingsBody = t.Object(
  {
    model: t.String({ minLength: 1 }),
    input: EmbeddingInput,
    encoding_format: t.Optional(t.Union([t.Literal("float"), t.Literal("base64")])),
    dimensions: t.Optional(JsonInteger({ minimum: 1 })),
    input_type: t.Optional(t.String()),
    provider: t.Optional(t.Nullable(ProviderPreferences)),
    user: t.Optional(User),
    session_id: t.Optional(SessionId),
    trace: t.Optional(Trace),
  },
  // provider-specific extras (e.g. `truncate`) are not refused; only the fields above are sent upstream
  { additionalProperties: true },
);

export const CostDetails = t.Object({
  upstream_inference_cost: t.Optional(t.Nullable(t.Number())),
  upstream_inference_prompt_cost: t.Number(),
  upstream_inference_completions_cost: t.Number(),
});

export const EmbeddingsResponse = t.Object({
  id: t.Optional(t.String()),
  object: t.Literal("list"),
  data: t.Array(t.Object({ object: t.Literal("embedding"), embedding: t.Union([t.Array(t.Number()), t.String()]), index: t.Optional(t.Integer()) })),
  model: t.String(),
  usage: t.Optional(
    t.Object({
      prompt_tokens: t.Integer(),
      total_tokens: t.Integer(),
      cost: t.Optional(t.Number()),
      is_byok: t.Optional(t.Boolean()),
      cost_details: t.Optional(t.Nullable(CostDetails)),
    }),
  ),
});

export type EmbeddingsRequest = typeof EmbeddingsBody.static;
export type EmbeddingsResult = typeof EmbeddingsResponse.static;
