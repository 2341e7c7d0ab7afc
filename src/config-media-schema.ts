import { type Static, Type as T, type TSchema } from "@sinclair/typebox";

/**
 * The media sections of gateway.yaml (images, speech, transcription, rerank), shaped like
 * `video_models`: one model list per kind over providers whose `api` is that kind's upstream API.
 * A provider with a media api serves only its kind's list, never chat routing.
 */

const Decimal = T.Union([T.String({ pattern: "^\\d+(\\.\\d+)?([eE]-?\\d+)?$" }), T.Number({ minimum: 0 })], {
  description: 'a non-negative USD decimal string such as "0.000001"',
});

/** Upstream media APIs: OpenAI's Images API, OpenAI's Audio API (speech and transcriptions), Cohere's v2 rerank. */
export const MediaApiKind = T.Union([T.Literal("openai-images"), T.Literal("openai-audio"), T.Literal("cohere-rerank")]);
export type MediaApi = Static<typeof MediaApiKind>;

export const MEDIA_KINDS = ["image", "speech", "transcription", "rerank"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The upstream API each kind's endpoints are served through, and the gateway.yaml list that holds the kind. */
export const MEDIA_API_OF: Readonly<Record<MediaKind, MediaApi>> = {
  image: "openai-images",
  speech: "openai-audio",
  transcription: "openai-audio",
  rerank: "cohere-rerank",
};
export const MEDIA_SECTION_OF: Readonly<Record<MediaKind, "image_models" | "speech_models" | "transcription_models" | "rerank_models">> = {
  image: "image_models",
  speech: "speech_models",
  transcription: "transcription_models",
  rerank: "rerank_models",
};

export const isMediaApi = (api: string): api is MediaApi => (MediaApiKind.anyOf as Array<{ const: string }>).some((s) => s.const === api);

const Size = T.String({ pattern: "^[1-9][0-9]*x[1-9][0-9]*$", description: "a pixel size such as 1024x1024" });
const Names = T.Array(T.String({ minLength: 1 }));

/** USD per image returned: one price for every variant, or one per "<size>/<quality>" ("<size>" when the endpoint lists no qualities). */
const ImagePricing = T.Object({ per_image: T.Union([Decimal, T.Record(T.String(), Decimal)]) }, { additionalProperties: false });

export const ImageEndpointSchema = T.Object(
  {
    provider: T.String(),
    model: T.String({ minLength: 1 }),
    supported_sizes: T.Array(Size, { minItems: 1 }),
    supported_qualities: T.Optional(T.Array(T.String({ minLength: 1 }), { minItems: 1 })),
    supported_output_formats: T.Optional(T.Array(T.Union([T.Literal("png"), T.Literal("jpeg"), T.Literal("webp")]), { minItems: 1 })),
    max_images: T.Optional(T.Integer({ minimum: 1, maximum: 10 })),
    background: T.Optional(T.Boolean()),
    seed: T.Optional(T.Boolean()),
    allowed_passthrough_parameters: T.Optional(Names),
    pricing: ImagePricing,
  },
  { additionalProperties: false },
);

export const SPEECH_FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"] as const;

export const SpeechEndpointSchema = T.Object(
  {
    provider: T.String(),
    model: T.String({ minLength: 1 }),
    voices: T.Array(T.String({ minLength: 1 }), { minItems: 1 }),
    response_formats: T.Array(T.Union(SPEECH_FORMATS.map((f) => T.Literal(f))), { minItems: 1 }),
    max_input_chars: T.Optional(T.Integer({ minimum: 1 })),
    speed: T.Optional(T.Boolean()),
    allowed_passthrough_parameters: T.Optional(Names),
    // USD per million characters of input
    pricing: T.Object({ per_million_characters: Decimal }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const TranscriptionEndpointSchema = T.Object(
  {
    provider: T.String(),
    model: T.String({ minLength: 1 }),
    input_formats: T.Array(T.String({ pattern: "^[a-z0-9]+$" }), { minItems: 1 }),
    max_file_mb: T.Optional(T.Number({ exclusiveMinimum: 0 })),
    max_duration_seconds: T.Number({ exclusiveMinimum: 0 }),
    allowed_passthrough_parameters: T.Optional(Names),
    // USD per minute or per second of audio: one of them
    pricing: T.Object({ per_minute: T.Optional(Decimal), per_second: T.Optional(Decimal) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const RerankEndpointSchema = T.Object(
  {
    provider: T.String(),
    model: T.String({ minLength: 1 }),
    max_documents: T.Optional(T.Integer({ minimum: 1 })),
    // USD per search (Cohere's search unit: a query over up to 100 documents), or per thousand documents: one of them
    pricing: T.Object({ per_search: T.Optional(Decimal), per_1k_documents: T.Optional(Decimal) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const mediaModel = <E extends TSchema>(endpoint: E) =>
  T.Object(
    {
      id: T.String({ pattern: "^[A-Za-z0-9._~-]+/[A-Za-z0-9._:~-]+$", description: "author/slug" }),
      name: T.Optional(T.String()),
      description: T.Optional(T.String()),
      endpoints: T.Array(endpoint, { minItems: 1 }),
    },
    { additionalProperties: false },
  );

export const ImageModelSchema = mediaModel(ImageEndpointSchema);
export const SpeechModelSchema = mediaModel(SpeechEndpointSchema);
export const TranscriptionModelSchema = mediaModel(TranscriptionEndpointSchema);
export const RerankModelSchema = mediaModel(RerankEndpointSchema);

/** The four lists, as fields of GatewayFileSchema. */
export const MediaSectionsSchema = {
  image_models: T.Optional(T.Array(ImageModelSchema)),
  speech_models: T.Optional(T.Array(SpeechModelSchema)),
  transcription_models: T.Optional(T.Array(TranscriptionModelSchema)),
  rerank_models: T.Optional(T.Array(RerankModelSchema)),
};

export type ImageEndpointConfig = Static<typeof ImageEndpointSchema>;
export type SpeechEndpointConfig = Static<typeof SpeechEndpointSchema>;
export type TranscriptionEndpointConfig = Static<typeof TranscriptionEndpointSchema>;
export type RerankEndpointConfig = Static<typeof RerankEndpointSchema>;
export type MediaModelConfig<E> = { id: string; name?: string; description?: string; endpoints: E[] };
export type ImageModelConfig = Static<typeof ImageModelSchema>;
export type SpeechModelConfig = Static<typeof SpeechModelSchema>;
export type TranscriptionModelConfig = Static<typeof TranscriptionModelSchema>;
export type RerankModelConfig = Static<typeof RerankModelSchema>;

/** The media lists of a configuration, as loadConfig keeps them. */
export type MediaModelsConfig = {
  imageModels: ImageModelConfig[];
  speechModels: SpeechModelConfig[];
  transcriptionModels: TranscriptionModelConfig[];
  rerankModels: RerankModelConfig[];
};
