import { t } from "elysia";

/**
 * Wire shapes of the catalog routes (OpenRouter's OpenAPI schemas Model, PublicEndpoint,
 * ModelsListResponse, ListEndpointsResponse, ListEndpointsZdrResponse, ListProvidersResponse). Open enums of the
 * spec (`"fp8"|…(open)`, Parameter, ProviderName) are plain strings here.
 */

const Decimal = t.String({ description: "USD decimal string" });

export const PercentileStats = t.Object({ p50: t.Number(), p75: t.Number(), p90: t.Number(), p99: t.Number() });

const pricingFields = {
  prompt: Decimal,
  completion: Decimal,
  request: t.Optional(Decimal),
  image: t.Optional(Decimal),
  image_token: t.Optional(Decimal),
  image_output: t.Optional(Decimal),
  audio: t.Optional(Decimal),
  audio_output: t.Optional(Decimal),
  input_audio_cache: t.Optional(Decimal),
  web_search: t.Optional(Decimal),
  internal_reasoning: t.Optional(Decimal),
  input_cache_read: t.Optional(Decimal),
  input_cache_write: t.Optional(Decimal),
  input_cache_write_1h: t.Optional(Decimal),
  discount: t.Optional(t.Number()),
};

/** PublicPricing (models) and Pricing (endpoints) have the same fields */
export const Pricing = t.Object(pricingFields);

export const ModelArchitecture = t.Object({
  input_modalities: t.Array(t.String()),
  output_modalities: t.Array(t.String()),
  modality: t.Nullable(t.String()),
  tokenizer: t.Optional(t.String()),
  instruct_type: t.Optional(t.Nullable(t.String())),
});

/** the endpoint listing's architecture: tokenizer and instruct_type are required there */
export const Architecture = t.Object({
  input_modalities: t.Array(t.String()),
  output_modalities: t.Array(t.String()),
  modality: t.Nullable(t.String()),
  tokenizer: t.Nullable(t.String()),
  instruct_type: t.Nullable(t.String()),
});

export const TopProviderInfo = t.Object({
  context_length: t.Optional(t.Nullable(t.Integer())),
  max_completion_tokens: t.Optional(t.Nullable(t.Integer())),
  is_moderated: t.Boolean(),
});

export const PerRequestLimits = t.Object({ prompt_tokens: t.Number(), completion_tokens: t.Number() });

export const DefaultParameters = t.Object({
  temperature: t.Optional(t.Nullable(t.Number())),
  top_p: t.Optional(t.Nullable(t.Number())),
  top_k: t.Optional(t.Nullable(t.Integer())),
  frequency_penalty: t.Optional(t.Nullable(t.Number())),
  presence_penalty: t.Optional(t.Nullable(t.Number())),
  repetition_penalty: t.Optional(t.Nullable(t.Number())),
});

export const Model = t.Object({
  id: t.String(),
  canonical_slug: t.String(),
  hugging_face_id: t.Optional(t.Nullable(t.String())),
  name: t.String(),
  created: t.Integer(),
  description: t.Optional(t.String()),
  context_length: t.Nullable(t.Integer()),
  architecture: ModelArchitecture,
  pricing: Pricing,
  top_provider: TopProviderInfo,
  per_request_limits: t.Nullable(PerRequestLimits),
  supported_parameters: t.Array(t.String()),
  supported_voices: t.Nullable(t.Array(t.String())),
  default_parameters: t.Nullable(DefaultParameters),
  knowledge_cutoff: t.Optional(t.Nullable(t.String())),
  expiration_date: t.Optional(t.Nullable(t.String())),
  links: t.Object({ details: t.String() }),
});

export const ModelsListResponse = t.Object({
  data: t.Array(Model),
  links: t.Object({ next: t.Nullable(t.String()) }),
  total_count: t.Integer(),
});

export const ModelResponse = t.Object({ data: Model });

export const ModelsCountResponse = t.Object({ data: t.Object({ count: t.Integer() }) });

export const ToolChoiceSupport = t.Object({ auto: t.Boolean(), none: t.Boolean(), required: t.Boolean(), function: t.Boolean() });

export const PublicEndpoint = t.Object({
  name: t.String(),
  model_id: t.String(),
  model_name: t.String(),
  context_length: t.Integer(),
  pricing: Pricing,
  provider_name: t.String(),
  tag: t.String(),
  quantization: t.Nullable(t.String()),
  max_completion_tokens: t.Nullable(t.Integer()),
  max_prompt_tokens: t.Nullable(t.Integer()),
  supported_parameters: t.Array(t.String()),
  status: t.Optional(t.Integer()),
  uptime_last_5m: t.Nullable(t.Number()),
  uptime_last_30m: t.Nullable(t.Number()),
  uptime_last_1d: t.Nullable(t.Number()),
  supports_implicit_caching: t.Boolean(),
  supports_tool_choice: ToolChoiceSupport,
  latency_last_30m: t.Nullable(PercentileStats),
  throughput_last_30m: t.Nullable(PercentileStats),
});

export const ListEndpointsResponse = t.Object({
  data: t.Object({
    id: t.String(),
    name: t.String(),
    created: t.Integer(),
    description: t.String(),
    architecture: Architecture,
    endpoints: t.Array(PublicEndpoint),
  }),
});

export const ListEndpointsZdrResponse = t.Object({ data: t.Array(PublicEndpoint) });

export const ProviderData = t.Object({
  name: t.String(),
  slug: t.String(),
  privacy_policy_url: t.Nullable(t.String()),
  terms_of_service_url: t.Optional(t.Nullable(t.String())),
  status_page_url: t.Optional(t.Nullable(t.String())),
});

export const ListProvidersResponse = t.Object({ data: t.Array(ProviderData) });

export const ModelIdParams = t.Object({ author: t.String({ minLength: 1, description: "the whole model id, author/slug, percent-encoded as one segment" }) });
export const ModelPathParams = t.Object({ author: t.String({ minLength: 1 }), slug: t.String({ minLength: 1 }) });

const Page = {
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000 })),
};

const ModalitiesParam = t.Optional(
  t.String({ description: "comma list of text, image, embeddings, audio, video, rerank, decisions, speech, transcription; or all" }),
);

/** unknown filters of OpenRouter's long list are accepted and ignored rather than refused */
export const ListModelsQuery = t.Object(
  {
    ...Page,
    category: t.Optional(t.String()),
    supported_parameters: t.Optional(t.String({ description: "comma list: models supporting all of them" })),
    output_modalities: ModalitiesParam,
    input_modalities: t.Optional(t.String()),
    q: t.Optional(t.String()),
    context: t.Optional(t.Integer({ minimum: 1 })),
    providers: t.Optional(t.String()),
    model_authors: t.Optional(t.String()),
    zdr: t.Optional(t.String()),
    sort: t.Optional(t.String()),
    use_rss: t.Optional(t.Boolean()),
    use_rss_chat_links: t.Optional(t.Boolean()),
  },
  { additionalProperties: true },
);

export const UserModelsQuery = t.Object({ ...Page, output_modalities: ModalitiesParam }, { additionalProperties: true });
export const CountQuery = t.Object({ output_modalities: ModalitiesParam }, { additionalProperties: true });
export const PageQuery = t.Object(Page, { additionalProperties: true });

export type ModelWire = typeof Model.static;
export type PublicEndpointWire = typeof PublicEndpoint.static;
export type ListModelsQueryInput = typeof ListModelsQuery.static;
