import type { MediaApi, MediaKind } from "../config-media-schema";

/**
 * The media catalog: image, speech, transcription and rerank models over providers whose `api`
 * is a media API (gateway.yaml's four lists, plus the default entries of providers whose key is
 * set). Prices are nano-dollars per the kind's unit; the configured USD strings are kept for the
 * listings.
 */

export type MediaProvider = Readonly<{
  slug: string;
  name: string;
  api: MediaApi;
  baseUrl: string;
  /** the gateway's own key; undefined: only BYOK credentials serve it */
  apiKey?: string;
  headers: Readonly<Record<string, string>>;
  /** default-catalog providers: the environment variable their key is read from */
  envVar?: string;
  /** gateway.yaml `zdr` and `data_collection`, which guardrails' data policy reads as for chat providers */
  zdr: boolean;
  dataCollection: "allow" | "deny";
}>;

type EndpointBase = Readonly<{
  /** `<provider slug>/<upstream model>` */
  id: string;
  modelId: string;
  provider: MediaProvider;
  upstreamModel: string;
  /** passthrough parameters a request may send this endpoint (provider.options.<slug>) */
  passthrough: readonly string[];
  /** every price is 0: guardrails' free-model rules apply to it */
  free: boolean;
}>;

export type ImageEndpoint = EndpointBase &
  Readonly<{
    kind: "image";
    sizes: readonly string[];
    /** null: the endpoint takes no quality */
    qualities: readonly string[] | null;
    outputFormats: readonly string[];
    maxImages: number;
    background: boolean;
    seed: boolean;
    /** nanos per image by variant ("<size>/<quality>", or "<size>"); `single`: one price for every variant */
    prices: Readonly<{ single: number | null; byVariant: Readonly<Record<string, number>> }>;
    /** the configured prices, USD strings */
    priceStrings: string | Readonly<Record<string, string>>;
  }>;

export type SpeechEndpoint = EndpointBase &
  Readonly<{
    kind: "speech";
    voices: readonly string[];
    responseFormats: readonly string[];
    maxInputChars: number;
    speed: boolean;
    nanosPerCharacter: number;
    priceString: string;
  }>;

export type TranscriptionEndpoint = EndpointBase &
  Readonly<{
    kind: "transcription";
    inputFormats: readonly string[];
    maxFileBytes: number;
    maxFileMb: number;
    maxDurationSeconds: number;
    nanosPerSecond: number;
    pricePerSecondUsd: string;
  }>;

export type RerankEndpoint = EndpointBase &
  Readonly<{ kind: "rerank"; maxDocuments: number; prices: Readonly<{ perSearch: number; per1kDocuments: number }>; perSearchString: string | null }>;

export type MediaEndpointOf = { image: ImageEndpoint; speech: SpeechEndpoint; transcription: TranscriptionEndpoint; rerank: RerankEndpoint };
export type MediaEndpoint = MediaEndpointOf[MediaKind];

export type MediaModel<E extends MediaEndpoint = MediaEndpoint> = Readonly<{
  id: string;
  name: string;
  description: string;
  created: number;
  endpoints: readonly E[];
}>;

export type MediaCatalog = {
  models<K extends MediaKind>(kind: K): readonly MediaModel<MediaEndpointOf[K]>[];
  get<K extends MediaKind>(kind: K, id: string): MediaModel<MediaEndpointOf[K]> | undefined;
  /** the kind of the model with this id, if any list has it */
  kindOf(id: string): MediaKind | undefined;
  provider(slug: string): MediaProvider | undefined;
  providers(): readonly MediaProvider[];
};
