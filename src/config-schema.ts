import { type Static, Type as T } from "@sinclair/typebox";
import { MediaApiKind, MediaSectionsSchema } from "./config-media-schema";

/** Schema of gateway.yaml (DESIGN.md, "Running it"). */

const Decimal = T.Union([T.String({ pattern: "^\\d+(\\.\\d+)?([eE]-?\\d+)?$" }), T.Number({ minimum: 0 })], {
  description: 'a non-negative USD decimal string such as "0.000001"',
});

/** The APIs clients speak to the gateway, each also an upstream API (the inbound formats). */
export const InboundApiKind = T.Union([T.Literal("openai-chat"), T.Literal("openai-responses"), T.Literal("anthropic-messages")]);

/**
 * Every upstream API of chat providers: the inbound formats, and those the gateway only calls
 * (azure-openai speaks openai-chat; vertex speaks gemini or anthropic-messages by model family).
 */
export const ApiKind = T.Union([...InboundApiKind.anyOf, T.Literal("azure-openai"), T.Literal("bedrock"), T.Literal("gemini"), T.Literal("vertex")]);

/** Upstream video APIs: a provider with one of these serves only `video_models`, never chat routing. */
export const VideoApiKind = T.Union([T.Literal("openai-videos"), T.Literal("fal-queue"), T.Literal("replicate"), T.Literal("gemini-veo")]);

export const PricingSchema = T.Object(
  {
    prompt: T.Optional(Decimal),
    completion: T.Optional(Decimal),
    request: T.Optional(Decimal),
    image: T.Optional(Decimal),
    input_cache_read: T.Optional(Decimal),
    input_cache_write: T.Optional(Decimal),
    input_cache_write_1h: T.Optional(Decimal),
    web_search: T.Optional(Decimal),
    internal_reasoning: T.Optional(Decimal),
  },
  { additionalProperties: false },
);

/**
 * The Azure OpenAI `api-version` an azure-openai provider sends when its `azure` block names none:
 * the dated version Azure's reasoning-models page lists for o3, o4-mini and the GPT-5 series, which
 * carries `max_completion_tokens` and `reasoning_effort` (the latest GA version, 2024-10-21, has
 * neither). https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle
 */
export const AZURE_DEFAULT_API_VERSION = "2025-04-01-preview";

// an azure-openai provider's own settings (the endpoint's model is the deployment name)
const AzureBlockSchema = T.Object(
  {
    api_version: T.Optional(
      T.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}(-preview)?$", description: "an Azure OpenAI api-version such as 2024-10-21 or 2025-04-01-preview" }),
    ),
  },
  { additionalProperties: false },
);

const Modality = T.Union(["text", "image", "audio", "video", "file", "embeddings"].map((m) => T.Literal(m)));

/** Where a Vertex AI provider calls and as whom (api: vertex); the key file may also come from GOOGLE_APPLICATION_CREDENTIALS. */
export const VertexSchema = T.Object(
  {
    project: T.Optional(T.String({ minLength: 1, description: "a Google Cloud project id" })),
    location: T.Optional(T.String({ pattern: "^[a-z0-9-]+$", description: "a Vertex AI location such as us-east5, europe-west1 or global" })),
    credentials_file: T.Optional(T.String({ minLength: 1, description: "the path of a service-account key file" })),
  },
  { additionalProperties: false },
);

export const ProviderSchema = T.Object(
  {
    slug: T.String({ pattern: "^[a-z0-9][a-z0-9._/-]*$", maxLength: 64 }),
    name: T.Optional(T.String()),
    api: T.Union([...ApiKind.anyOf, ...VideoApiKind.anyOf, ...MediaApiKind.anyOf]),
    // required but for APIs with a default (bedrock: https://bedrock-runtime.{region}.amazonaws.com;
    // vertex: the one its location names); config.ts checks it
    base_url: T.Optional(T.String({ pattern: "^https?://" })),
    api_key: T.Optional(T.String()),
    // bedrock: AWS access keys that sign each call (SigV4) and the region; each field falls back to its AWS_* variable
    aws: T.Optional(
      T.Object(
        {
          region: T.Optional(T.String({ pattern: "^[a-z0-9-]+$", description: "an AWS region such as us-east-1" })),
          access_key_id: T.Optional(T.String({ minLength: 1 })),
          secret_access_key: T.Optional(T.String({ minLength: 1 })),
          session_token: T.Optional(T.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    vertex: T.Optional(VertexSchema),
    headers: T.Optional(T.Record(T.String(), T.String())),
    azure: T.Optional(AzureBlockSchema),
    zdr: T.Optional(T.Boolean()),
    data_collection: T.Optional(T.Union([T.Literal("allow"), T.Literal("deny")])),
    // a top-level field name as the upstream would receive it (stream_options, service_tier, ...)
    drop_params: T.Optional(
      T.Array(T.String({ pattern: "^[A-Za-z0-9_.-]+$", description: "a top-level request field name such as stream_options" }), {
        description: "a list of top-level request field names, such as [stream_options, service_tier]",
      }),
    ),
  },
  { additionalProperties: false },
);

export const EndpointSchema = T.Object(
  {
    provider: T.String(),
    model: T.String({ minLength: 1 }),
    pricing: T.Optional(PricingSchema),
    context_length: T.Optional(T.Integer({ minimum: 1 })),
    max_completion_tokens: T.Optional(T.Integer({ minimum: 1 })),
    quantization: T.Optional(T.String()),
    supported_parameters: T.Optional(T.Array(T.String())),
  },
  { additionalProperties: false },
);

export const ModelSchema = T.Object(
  {
    id: T.String({ pattern: "^[A-Za-z0-9._~-]+/[A-Za-z0-9._:~-]+$", description: "author/slug" }),
    name: T.Optional(T.String()),
    description: T.Optional(T.String()),
    context_length: T.Optional(T.Integer({ minimum: 1 })),
    input_modalities: T.Optional(T.Array(Modality)),
    output_modalities: T.Optional(T.Array(Modality)),
    endpoints: T.Array(EndpointSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

const AspectRatio = T.Union(["16:9", "9:16", "1:1", "4:3", "3:4", "3:2", "2:3", "21:9", "9:21"].map((v) => T.Literal(v)));
const Resolution = T.Union(["360p", "480p", "720p", "768p", "1080p", "1K", "2K", "4K"].map((v) => T.Literal(v)));

export const VideoPricingSchema = T.Object(
  {
    // USD per second of output; per_second_audio replaces it when audio is generated
    per_second: T.Optional(Decimal),
    per_second_audio: T.Optional(Decimal),
    per_video: T.Optional(Decimal),
  },
  { additionalProperties: false },
);

export const VideoEndpointSchema = T.Object(
  {
    provider: T.String(),
    model: T.String({ minLength: 1 }),
    supported_durations: T.Array(T.Integer({ minimum: 1 }), { minItems: 1 }),
    supported_resolutions: T.Optional(T.Array(Resolution)),
    supported_aspect_ratios: T.Optional(T.Array(AspectRatio)),
    supported_sizes: T.Optional(T.Array(T.String({ pattern: "^[1-9][0-9]*x[1-9][0-9]*$" }))),
    supported_frame_images: T.Optional(T.Array(T.Union([T.Literal("first_frame"), T.Literal("last_frame")]))),
    generate_audio: T.Optional(T.Boolean()),
    seed: T.Optional(T.Boolean()),
    allowed_passthrough_parameters: T.Optional(T.Array(T.String({ minLength: 1 }))),
    pricing: T.Optional(VideoPricingSchema),
  },
  { additionalProperties: false },
);

export const VideoModelSchema = T.Object(
  {
    id: T.String({ pattern: "^[A-Za-z0-9._~-]+/[A-Za-z0-9._:~-]+$", description: "author/slug" }),
    name: T.Optional(T.String()),
    description: T.Optional(T.String()),
    hugging_face_id: T.Optional(T.String()),
    endpoints: T.Array(VideoEndpointSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

const VideosSectionSchema = T.Object(
  {
    poll_initial_ms: T.Optional(T.Integer({ minimum: 1, maximum: 3_600_000 })),
    poll_max_ms: T.Optional(T.Integer({ minimum: 1, maximum: 3_600_000 })),
    deadline_minutes: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 10_080 })),
    retention_days: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 3650 })),
  },
  { additionalProperties: false },
);

// where video outputs are kept: an S3-compatible bucket (absent: a folder under the data directory)
const StorageSectionSchema = T.Object(
  {
    s3: T.Optional(
      T.Object(
        {
          bucket: T.String({ minLength: 1 }),
          endpoint: T.Optional(T.String({ pattern: "^https?://" })),
          region: T.Optional(T.String({ minLength: 1 })),
          access_key_id: T.String({ minLength: 1 }),
          secret_access_key: T.String({ minLength: 1 }),
          prefix: T.Optional(T.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

// single sign-on (OpenID Connect) and whether people may sign in with a password (auth-web/)
const AuthSectionSchema = T.Object(
  {
    oidc: T.Optional(
      T.Object(
        {
          issuer: T.String({ pattern: "^https?://" }),
          client_id: T.String({ minLength: 1 }),
          client_secret: T.Optional(T.String({ minLength: 1 })),
          scopes: T.Optional(T.Array(T.String({ minLength: 1, pattern: "^\\S+$" }), { minItems: 1 })),
          allowed_email_domains: T.Optional(T.Array(T.String({ minLength: 1 }), { minItems: 1 })),
          role_claim: T.Optional(T.String({ minLength: 1 })),
          role_mapping: T.Optional(T.Record(T.String({ minLength: 1 }), T.Union([T.Literal("admin"), T.Literal("member")]))),
          default_role: T.Optional(T.Union([T.Literal("admin"), T.Literal("member")])),
          button_label: T.Optional(T.String({ minLength: 1, maxLength: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    password: T.Optional(T.Boolean()),
  },
  { additionalProperties: false },
);

/** Days I/O logging keeps content when gateway.yaml does not say (io_logging.retention_days). */
export const IO_LOGGING_RETENTION_DAYS = 30;

export const GatewayFileSchema = T.Object(
  {
    providers: T.Optional(T.Array(ProviderSchema)),
    models: T.Optional(T.Array(ModelSchema)),
    video_models: T.Optional(T.Array(VideoModelSchema)),
    ...MediaSectionsSchema,
    videos: T.Optional(VideosSectionSchema),
    storage: T.Optional(StorageSectionSchema),
    catalog: T.Optional(T.Object({ default: T.Optional(T.Boolean()), list_unavailable: T.Optional(T.Boolean()) }, { additionalProperties: false })),
    routing: T.Optional(
      T.Object(
        {
          first_byte_timeout_ms: T.Optional(T.Integer({ minimum: 1 })),
          circuit_failures: T.Optional(T.Integer({ minimum: 1 })),
          circuit_cooldown_ms: T.Optional(T.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
    server: T.Optional(
      T.Object(
        {
          max_body_mb: T.Optional(T.Number({ exclusiveMinimum: 0 })),
          // browser origins allowed to call /api/v1/* ("*" = any); the API never allows credentials
          cors_origins: T.Optional(T.Array(T.Union([T.Literal("*"), T.String({ pattern: "^https?://[^/]+$" })]))),
          // where people reach the gateway (invite links; https makes session cookies Secure)
          public_url: T.Optional(T.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    security: T.Optional(T.Object({ allow_private_urls: T.Optional(T.Boolean()) }, { additionalProperties: false })),
    metrics: T.Optional(T.Object({ token: T.Optional(T.String({ minLength: 16 })) }, { additionalProperties: false })),
    jobs: T.Optional(
      T.Object(
        {
          // seconds before each retry of a failed job; after the last one the job is dead
          backoff_seconds: T.Optional(T.Array(T.Number({ exclusiveMinimum: 0, maximum: 2_592_000 }), { minItems: 1, maxItems: 100 })),
          lease_seconds: T.Optional(T.Number({ minimum: 0.05, maximum: 3600 })),
          concurrency: T.Optional(T.Integer({ minimum: 1, maximum: 256 })),
          poll_seconds: T.Optional(T.Number({ minimum: 0.01, maximum: 300 })),
        },
        { additionalProperties: false },
      ),
    ),
    responses: T.Optional(T.Object({ item_retention_minutes: T.Optional(T.Integer({ minimum: 0, maximum: 525_600 })) }, { additionalProperties: false })),
    // browser sessions of people signed in (auth-web/session.ts)
    sessions: T.Optional(
      T.Object(
        {
          idle_minutes: T.Optional(T.Integer({ minimum: 1, maximum: 525_600 })),
          max_hours: T.Optional(T.Integer({ minimum: 1, maximum: 8_760 })),
        },
        { additionalProperties: false },
      ),
    ),
    // how long prompts and completions kept by a workspace's I/O logging stay readable
    io_logging: T.Optional(T.Object({ retention_days: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 3650 })) }, { additionalProperties: false })),
    // the exact-match response cache (src/gateway/response-cache/); off unless enabled
    response_cache: T.Optional(
      T.Object(
        {
          enabled: T.Optional(T.Boolean()),
          ttl_seconds: T.Optional(T.Integer({ minimum: 1, maximum: 31_536_000 })),
          // YAML 1.1 readers spell on/off as booleans: both spellings mean the same
          default: T.Optional(T.Union([T.Literal("on"), T.Literal("off"), T.Boolean()], { description: "on, off, true or false" })),
          max_entry_bytes: T.Optional(T.Integer({ minimum: 1, maximum: 1_073_741_824 })),
        },
        { additionalProperties: false },
      ),
    ),
    auth: T.Optional(AuthSectionSchema),
    // how long the audit log keeps its events (the chain stays verifiable from the oldest kept one)
    audit: T.Optional(T.Object({ retention_days: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 36_500 })) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export type VideoModelConfig = Static<typeof VideoModelSchema>;
export type VideoEndpointConfig = Static<typeof VideoEndpointSchema>;
export type ChatProviderConfig = ProviderConfig & { api: ApiKindName };
export type GatewayFile = Static<typeof GatewayFileSchema>;
/** A provider as gateway.yaml spells it; `loadConfig` fills in what defaults (ProviderConfig). */
export type ProviderFileConfig = Static<typeof ProviderSchema>;
/** A provider once loaded: its base URL known (written, or its API's default). */
export type ProviderConfig = ProviderFileConfig & { base_url: string };
export type ModelConfig = Static<typeof ModelSchema>;
export type EndpointConfig = Static<typeof EndpointSchema>;
export type PricingConfig = Static<typeof PricingSchema>;
export type ApiKindName = Static<typeof ApiKind>;
/** The formats clients speak to the gateway, each also an upstream API of the same name; other upstream APIs speak one of them (azure-openai: openai-chat) or a body format of their own. */
export type InboundFormatName = Static<typeof InboundApiKind>;
