import type { ApiKindName } from "../config-schema";

/** Prices in nano-dollars per unit (token, request, image, search); fractional values are kept. */
export type PriceTable = {
  prompt: number;
  completion: number;
  request: number;
  image: number;
  inputCacheRead: number;
  inputCacheWrite: number;
  inputCacheWrite1h: number;
  webSearch: number;
  internalReasoning: number;
};

/** The same prices as USD decimal strings, as they appear on the wire. */
export type PricingStrings = Partial<
  Record<
    | "prompt"
    | "completion"
    | "request"
    | "image"
    | "audio"
    | "input_cache_read"
    | "input_cache_write"
    | "input_cache_write_1h"
    | "web_search"
    | "internal_reasoning",
    string
  >
>;

export type ProviderEntry = {
  slug: string;
  name: string;
  api: ApiKindName;
  baseUrl: string;
  /** the gateway's own key for this provider; undefined = usable only with BYOK credentials */
  apiKey?: string;
  headers: Record<string, string>;
  zdr: boolean;
  dataCollection: "allow" | "deny";
  /** default-catalog providers: the environment variable their key is read from */
  envVar?: string;
  /** AWS region of a bedrock provider: the calls' signing region and the `{region}` of its base URL */
  region?: string;
  /** top-level request fields never sent to this provider (gateway.yaml `drop_params`); absent: none */
  dropParams?: readonly string[];
  /** an azure-openai provider's api-version (gateway.yaml `azure.api_version`, else AZURE_DEFAULT_API_VERSION) */
  azure?: { apiVersion: string };
  /** api vertex: the project (absent: the service account's own) and the location calls go to */
  vertex?: { project?: string; location: string };
};

export type CatalogEndpoint = {
  /** stable id: `<provider slug>/<upstream model>` */
  id: string;
  modelId: string;
  provider: ProviderEntry;
  upstreamModel: string;
  pricing: PriceTable;
  pricingStrings: PricingStrings;
  contextLength: number;
  maxCompletionTokens: number | null;
  quantization: string | null;
  supportedParameters: string[];
};

export type CatalogModel = {
  id: string;
  name: string;
  description: string;
  contextLength: number;
  inputModalities: string[];
  outputModalities: string[];
  endpoints: CatalogEndpoint[];
  /** unix seconds */
  created: number;
  /** e.g. "2024-09-30" or "2024-09"; null when unknown */
  knowledgeCutoff?: string | null;
  /** the model can think before answering (reasoning parameters apply) */
  reasoning?: boolean;
  /** a speech model's voices (the listing's supported_voices) */
  supportedVoices?: string[];
};

export interface Catalog {
  getModel(id: string): CatalogModel | undefined;
  models(): CatalogModel[];
  providers(): ProviderEntry[];
  getProvider(slug: string): ProviderEntry | undefined;
}
