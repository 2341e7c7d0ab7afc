// Response schemas transcribed from OpenRouter's OpenAPI spec (its schemas
// Model, ModelArchitecture, PublicPricing, TopProviderInfo, PerRequestLimits, DefaultParameters,
// ModelLinks, ModelsListResponse, PublicEndpoint, Pricing, PercentileStats, ToolChoiceSupport,
// ListEndpointsResponse + Architecture, ListEndpointsZdrResponse, ListProvidersResponse +
// ListProvidersData, ModelsCountResponse, ModelResponse, CreateEmbeddingsResponseBody).
// Written apart from src/modules/models/model.ts on purpose: the check must not share its
// subject's mistakes. Objects are closed so that a misspelt field fails too.
import { Type as T, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

const closed = <P extends Record<string, TSchema>>(props: P) => T.Object(props, { additionalProperties: false });
const Nullable = <S extends TSchema>(s: S) => T.Union([s, T.Null()]);
const Int = T.Integer();

const PercentileStats = closed({ p50: T.Number(), p75: T.Number(), p90: T.Number(), p99: T.Number() });

const PricingOverride = closed({
  audio: T.Optional(T.String()),
  completion: T.Optional(T.String()),
  input_audio_cache: T.Optional(T.String()),
  input_cache_read: T.Optional(T.String()),
  input_cache_write: T.Optional(T.String()),
  input_cache_write_1h: T.Optional(T.String()),
  min_prompt_tokens: T.Optional(T.Number()),
  prompt: T.Optional(T.String()),
  utc_days: T.Optional(T.Array(T.String())),
  utc_end: T.Optional(T.Number()),
  utc_start: T.Optional(T.Number()),
});

/** PublicPricing and Pricing are the same record */
const Pricing = closed({
  audio: T.Optional(T.String()),
  audio_output: T.Optional(T.String()),
  completion: T.String({ pattern: "^\\d+(\\.\\d+)?$" }),
  discount: T.Optional(T.Number()),
  image: T.Optional(T.String()),
  image_output: T.Optional(T.String()),
  image_token: T.Optional(T.String()),
  input_audio_cache: T.Optional(T.String()),
  input_cache_read: T.Optional(T.String()),
  input_cache_write: T.Optional(T.String()),
  input_cache_write_1h: T.Optional(T.String()),
  internal_reasoning: T.Optional(T.String()),
  overrides: T.Optional(T.Array(PricingOverride)),
  prompt: T.String({ pattern: "^\\d+(\\.\\d+)?$" }),
  request: T.Optional(T.String()),
  web_search: T.Optional(T.String()),
});

const InputModality = T.String();
const OutputModality = T.String();

const ModelArchitecture = closed({
  input_modalities: T.Array(InputModality),
  instruct_type: T.Optional(Nullable(T.String())),
  modality: Nullable(T.String()),
  output_modalities: T.Array(OutputModality),
  tokenizer: T.Optional(T.String()),
});

const Architecture = closed({
  input_modalities: T.Array(InputModality),
  instruct_type: Nullable(T.String()),
  modality: Nullable(T.String()),
  output_modalities: T.Array(OutputModality),
  tokenizer: Nullable(T.String()),
});

const TopProviderInfo = closed({ context_length: T.Optional(Nullable(Int)), is_moderated: T.Boolean(), max_completion_tokens: T.Optional(Nullable(Int)) });
const PerRequestLimits = closed({ completion_tokens: T.Number(), prompt_tokens: T.Number() });
const DefaultParameters = closed({
  frequency_penalty: T.Optional(Nullable(T.Number())),
  presence_penalty: T.Optional(Nullable(T.Number())),
  repetition_penalty: T.Optional(Nullable(T.Number())),
  temperature: T.Optional(Nullable(T.Number())),
  top_k: T.Optional(Nullable(Int)),
  top_p: T.Optional(Nullable(T.Number())),
});

export const Model = closed({
  alias_target: T.Optional(closed({ name: T.String(), slug: T.String() })),
  architecture: ModelArchitecture,
  benchmarks: T.Optional(T.Unknown()),
  canonical_slug: T.String(),
  context_length: Nullable(Int),
  created: Int,
  default_parameters: Nullable(DefaultParameters),
  description: T.Optional(T.String()),
  expiration_date: T.Optional(Nullable(T.String())),
  hugging_face_id: T.Optional(Nullable(T.String())),
  id: T.String({ pattern: "^[^/]+/[^/]+$" }),
  knowledge_cutoff: T.Optional(Nullable(T.String())),
  links: closed({ details: T.String() }),
  name: T.String(),
  per_request_limits: Nullable(PerRequestLimits),
  pricing: Pricing,
  reasoning: T.Optional(T.Unknown()),
  supported_parameters: T.Array(T.String()),
  supported_voices: Nullable(T.Array(T.String())),
  top_provider: TopProviderInfo,
});

export const ModelsListResponse = closed({ data: T.Array(Model), links: closed({ next: Nullable(T.String()) }), total_count: Int });
export const ModelResponse = closed({ data: Model });
export const ModelsCountResponse = closed({ data: closed({ count: Int }) });

export const PublicEndpoint = closed({
  context_length: Int,
  latency_last_30m: Nullable(PercentileStats),
  max_completion_tokens: Nullable(Int),
  max_prompt_tokens: Nullable(Int),
  model_id: T.String(),
  model_name: T.String(),
  name: T.String(),
  perf_last_30m_by_workload: T.Optional(T.Unknown()),
  pricing: Pricing,
  provider_name: T.String(),
  quantization: Nullable(T.String()),
  status: T.Optional(T.Union([0, -1, -2, -3, -5, -10].map((n) => T.Literal(n)))),
  supported_parameters: T.Array(T.String()),
  supports_implicit_caching: T.Boolean(),
  supports_tool_choice: closed({ auto: T.Boolean(), function: T.Boolean(), none: T.Boolean(), required: T.Boolean() }),
  supports_voice_cloning: T.Optional(T.Boolean()),
  tag: T.String(),
  throughput_last_30m: Nullable(PercentileStats),
  uptime_last_1d: Nullable(T.Number()),
  uptime_last_30m: Nullable(T.Number()),
  uptime_last_5m: Nullable(T.Number()),
});

/** op.ListEndpointsResponse wraps ListEndpointsResponse in `data` */
export const ListEndpointsResponse = closed({
  data: closed({ architecture: Architecture, created: Int, description: T.String(), endpoints: T.Array(PublicEndpoint), id: T.String(), name: T.String() }),
});
export const ListEndpointsZdrResponse = closed({ data: T.Array(PublicEndpoint) });

export const ListProvidersResponse = closed({
  data: T.Array(
    closed({
      datacenters: T.Optional(Nullable(T.Array(T.Unknown()))),
      headquarters: T.Optional(Nullable(T.Unknown())),
      name: T.String(),
      privacy_policy_url: Nullable(T.String()),
      slug: T.String(),
      status_page_url: T.Optional(Nullable(T.String())),
      terms_of_service_url: T.Optional(Nullable(T.String())),
    }),
  ),
});

const CostDetails = closed({
  server_tool_cost: T.Optional(Nullable(T.Number())),
  upstream_inference_completions_cost: T.Number(),
  upstream_inference_cost: T.Optional(Nullable(T.Number())),
  upstream_inference_prompt_cost: T.Number(),
});

export const CreateEmbeddingsResponseBody = closed({
  data: T.Array(closed({ embedding: T.Union([T.Array(T.Number()), T.String()]), index: T.Optional(Int), object: T.Literal("embedding") })),
  id: T.Optional(T.String()),
  model: T.String(),
  object: T.Literal("list"),
  usage: T.Optional(
    closed({
      cost: T.Optional(T.Number()),
      cost_details: T.Optional(Nullable(CostDetails)),
      is_byok: T.Optional(T.Boolean()),
      prompt_tokens: Int,
      prompt_tokens_details: T.Optional(T.Unknown()),
      total_tokens: Int,
    }),
  ),
});

/** every violation as "path: message", empty when the value conforms */
export function violations(schema: TSchema, value: unknown): string[] {
  return [...Value.Errors(schema, value)].map((e) => `${e.path || "/"}: ${e.message}`);
}
