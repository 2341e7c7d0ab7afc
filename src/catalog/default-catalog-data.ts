import type { ApiKindName } from "../config-schema";
import type { PricingStrings } from "./types";

/** Shape of default-catalog.generated.json, written by scripts/generate-catalog.ts. */

export type DefaultProvider = {
  slug: string;
  name: string;
  api: ApiKindName;
  /** may name environment variables in braces (`https://{AZURE_RESOURCE_NAME}.openai.azure.com`), filled in from the environment */
  baseUrl: string;
  /** the environment variable whose value is this provider's API key (api vertex: the path of its service-account key file) */
  env: string;
  /** api vertex: the variables naming the project and the location calls go to */
  vertexEnv?: { project: string; location: string };
};

export type DefaultEndpoint = {
  provider: string;
  model: string;
  contextLength: number;
  maxCompletionTokens: number | null;
  pricing: PricingStrings & { prompt: string; completion: string };
  supportedParameters: string[];
  quantization: string | null;
};

export type DefaultModel = {
  id: string;
  name: string;
  description: string;
  /** unix seconds of the release date */
  created: number;
  knowledgeCutoff: string | null;
  contextLength: number;
  inputModalities: string[];
  outputModalities: string[];
  reasoning: boolean;
  endpoints: DefaultEndpoint[];
};

export type DefaultCatalogData = { source: string; providers: DefaultProvider[]; models: DefaultModel[] };
