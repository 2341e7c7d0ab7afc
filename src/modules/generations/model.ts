import { t } from "elysia";

const N = t.Nullable(t.Number());
const I = t.Nullable(t.Integer());
const S = t.Nullable(t.String());

export const GenerationQuery = t.Object({ id: t.String({ minLength: 1 }) });

export const ProviderResponse = t.Object({
  status: I,
  id: t.Optional(t.String()),
  endpoint_id: t.Optional(t.String()),
  model_permaslug: t.Optional(t.String()),
  provider_name: t.Optional(t.String()),
  latency: t.Optional(t.Number()),
  is_byok: t.Optional(t.Boolean()),
});

export const GenerationData = t.Object({
  id: t.String(),
  upstream_id: S,
  created_at: t.String(),
  model: t.String(),
  api_type: t.Nullable(t.UnionEnum(["completions", "embeddings", "rerank", "decisions", "video", "tts", "stt", "image"])),
  provider_name: S,
  provider_responses: t.Nullable(t.Array(ProviderResponse)),
  router: S,
  origin: t.String(),
  http_referer: S,
  app_id: I,
  external_user: S,
  user_agent: S,
  preset_id: S,
  workspace_id: S,
  data_region: t.Union([t.Literal("global"), t.Literal("europe"), t.Literal("us")]),
  is_byok: t.Boolean(),
  streamed: t.Nullable(t.Boolean()),
  cancelled: t.Nullable(t.Boolean()),
  finish_reason: S,
  native_finish_reason: S,
  latency: N,
  generation_time: N,
  moderation_latency: N,
  tokens_prompt: I,
  tokens_completion: I,
  native_tokens_prompt: I,
  native_tokens_completion: I,
  native_tokens_completion_images: I,
  native_tokens_reasoning: I,
  native_tokens_cached: I,
  num_media_prompt: I,
  num_media_completion: I,
  num_input_audio_prompt: I,
  num_search_results: I,
  num_fetches: I,
  total_cost: t.Number(),
  usage: t.Number(),
  upstream_inference_cost: N,
  cache_discount: N,
  service_tier: S,
  web_search_engine: S,
  request_id: t.Optional(S),
  session_id: t.Optional(S),
  response_cache_source_id: t.Optional(S),
  // gateway extensions
  time_to_first_token: N,
  usage_estimated: t.Boolean(),
  native_tokens_cache_write: I,
  /** the response cache's verdict on this answer (hit, miss, bypass); null while the cache is off */
  cache_status: t.Nullable(t.Union([t.Literal("hit"), t.Literal("miss"), t.Literal("bypass")])),
  /** POST /generation/feedback submissions, oldest first */
  feedback: t.Array(t.Object({ category: t.String(), comment: S, created_at: t.String() })),
});

export const GenerationResponse = t.Object({ data: GenerationData });

/** GET /generation/content, as OpenRouter answers it: what I/O logging kept of a generation. */
const ContentErrorAttempt = t.Object({ code: t.Integer(), message: t.String(), provider_name: S, raw: S });
export const GenerationContentResponse = t.Object({
  data: t.Object({
    input: t.Union([t.Object({ prompt: t.String() }), t.Object({ messages: t.Array(t.Any()) })]),
    output: t.Object({ completion: S, reasoning: S }),
    error: t.Nullable(t.Object({ message: S, previous_errors: t.Array(ContentErrorAttempt), provider_name: S, raw: S, status: I })),
  }),
});
export type GenerationContentOut = typeof GenerationContentResponse.static;
export type GenerationDataOut = typeof GenerationData.static;

const isoTime = (description: string) => t.Optional(t.String({ format: "date-time", description }));

/** Literals, not UnionEnum: Elysia fills a missing UnionEnum field with its first value. */
export const ListGenerationsQuery = t.Object({
  api_key_hash: t.Optional(t.String({ minLength: 1, description: "generations of this key" })),
  workspace_id: t.Optional(t.String({ minLength: 1, description: "generations of this workspace" })),
  model: t.Optional(t.String({ minLength: 1, description: "the model that served (author/slug)" })),
  provider: t.Optional(t.String({ minLength: 1, description: "the provider slug that served" })),
  status: t.Optional(t.Union([t.Literal("success"), t.Literal("error"), t.Literal("cancelled")], { description: "success, error or cancelled" })),
  from: isoTime("created at or after this time (ISO 8601)"),
  to: isoTime("created before this time (ISO 8601)"),
  flagged: t.Optional(
    t.Union([t.Literal("true"), t.Literal("false")], {
      description: "true: only generations a guardrail content filter flagged (action flag); false: only those none flagged",
    }),
  ),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, description: "page size, default 50" })),
  cursor: t.Optional(t.String({ minLength: 1, description: "next_cursor of the previous page" })),
});

/**
 * A listed generation: its record as GET /generation gives it, without the feedback (read it there),
 * and the guardrail flags that OpenRouter's shape of GET /generation has no field for.
 */
const ListedGeneration = t.Composite([
  t.Omit(GenerationData, ["feedback"]),
  t.Object({
    guardrail_flags: t.Array(t.String(), {
      description: "the guardrail content filters (action flag) that matched the request, by name, e.g. Email address; empty when none did",
    }),
  }),
]);
export type ListedGenerationOut = typeof ListedGeneration.static;

export const ListGenerationsResponse = t.Object({
  data: t.Array(ListedGeneration),
  /** null on the last page */
  next_cursor: t.Nullable(t.String()),
});

export const FEEDBACK_CATEGORIES = ["latency", "incoherence", "incorrect_response", "formatting", "billing", "api_error", "other"] as const;

export const FeedbackBody = t.Object(
  {
    generation_id: t.String({ minLength: 1 }),
    // not t.UnionEnum: it defaults to its first value, so a missing category would pass as "latency"
    category: t.Union(FEEDBACK_CATEGORIES.map((c) => t.Literal(c))),
    comment: t.Optional(t.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

export const FeedbackResponse = t.Object({ data: t.Object({ success: t.Literal(true) }) });

export type FeedbackInput = typeof FeedbackBody.static;
