import { decimalToNanos } from "../billing/money";
import type { Config } from "../config";
import { GOOGLE_CREDENTIALS_VARIABLE, vertexDefaultActive } from "../config-credentials";
import { isMediaApi } from "../config-media-schema";
import { AZURE_DEFAULT_API_VERSION, type ChatProviderConfig, type ModelConfig, type PricingConfig, type ProviderConfig } from "../config-schema";
import { DEFAULT_VERTEX_LOCATION, vertexBaseUrl } from "../google-cloud";
import { isVideoApi } from "../videos/video-api";
import { AWS_ENVIRONMENT_HINT, type AwsEnvironment, awsKeysText, environmentCredential } from "./bedrock-credential";
import { DEFAULT_CATALOG, resolvedBaseUrl } from "./default-catalog";
import type { DefaultCatalogData, DefaultModel, DefaultProvider } from "./default-catalog-data";
import type { Catalog, CatalogEndpoint, CatalogModel, PriceTable, PricingStrings, ProviderEntry } from "./types";

const DEFAULT_CONTEXT = 128_000;
const DEFAULT_PARAMETERS = ["max_tokens", "temperature", "top_p", "stop", "tools", "tool_choice", "response_format", "seed"];

export function priceTable(p: PricingConfig | undefined): PriceTable {
  return {
    prompt: decimalToNanos(p?.prompt),
    completion: decimalToNanos(p?.completion),
    request: decimalToNanos(p?.request),
    image: decimalToNanos(p?.image),
    inputCacheRead: decimalToNanos(p?.input_cache_read),
    inputCacheWrite: decimalToNanos(p?.input_cache_write),
    inputCacheWrite1h: decimalToNanos(p?.input_cache_write_1h ?? p?.input_cache_write),
    webSearch: decimalToNanos(p?.web_search),
    internalReasoning: decimalToNanos(p?.internal_reasoning),
  };
}

function pricingStrings(p: PricingConfig | undefined): PricingStrings {
  const out: PricingStrings = {};
  for (const [k, v] of Object.entries(p ?? {})) if (v !== undefined) out[k as keyof PricingStrings] = String(v);
  return out;
}

/** A provider's own credential: its api_key, or (bedrock) the JSON text of its aws block's keys. */
function ownCredential(p: ChatProviderConfig): string | undefined {
  if (p.api_key) return p.api_key;
  const aws = p.aws;
  return aws?.access_key_id && aws.secret_access_key
    ? awsKeysText({ accessKeyId: aws.access_key_id, secretAccessKey: aws.secret_access_key, sessionToken: aws.session_token })
    : undefined;
}

type Env = Record<string, string | undefined>;
type Credentials = { env: Env; files: Readonly<Record<string, string>> };

/** A vertex provider's key: given inline, else the key file it or GOOGLE_APPLICATION_CREDENTIALS names (read by config.ts). */
function vertexKey(p: ChatProviderConfig, credentials: Credentials): string | undefined {
  const path = p.vertex?.credentials_file ?? credentials.env[GOOGLE_CREDENTIALS_VARIABLE];
  return p.api_key || (path !== undefined ? credentials.files[path] : undefined);
}

export function providerEntry(p: ChatProviderConfig, credentials: Credentials = { env: {}, files: {} }): ProviderEntry {
  const vertex =
    p.api === "vertex" ? { ...(p.vertex?.project ? { project: p.vertex.project } : {}), location: p.vertex?.location ?? DEFAULT_VERTEX_LOCATION } : undefined;
  return {
    slug: p.slug,
    name: p.name ?? p.slug,
    api: p.api,
    // a vertex provider's base URL is filled in from its location when the configuration loads (config-providers.ts)
    baseUrl: p.base_url.replace(/\/+$/, ""),
    apiKey: (vertex ? vertexKey(p, credentials) : ownCredential(p)) || undefined,
    headers: p.headers ?? {},
    zdr: p.zdr ?? false,
    dataCollection: p.data_collection ?? "allow",
    ...(p.aws?.region ? { region: p.aws.region } : {}),
    ...(p.drop_params?.length ? { dropParams: p.drop_params } : {}),
    ...(p.api === "azure-openai" ? { azure: { apiVersion: p.azure?.api_version ?? AZURE_DEFAULT_API_VERSION } } : {}),
    ...(vertex ? { vertex } : {}),
  };
}

/** A default Vertex provider: its place from the environment, its key the file GOOGLE_APPLICATION_CREDENTIALS names. */
function defaultVertex(p: DefaultProvider, credentials: Credentials): Pick<ProviderEntry, "apiKey" | "baseUrl" | "vertex"> {
  const names = p.vertexEnv!;
  const location = credentials.env[names.location] || DEFAULT_VERTEX_LOCATION;
  const path = credentials.env[p.env];
  return {
    apiKey: vertexDefaultActive(p, credentials.env) && path ? credentials.files[path] : undefined,
    baseUrl: vertexBaseUrl(location),
    vertex: { ...(credentials.env[names.project] ? { project: credentials.env[names.project] } : {}), location },
  };
}

/**
 * Default-catalog providers; usable (an apiKey) only when their environment variables are set: the
 * key's, and those the base URL names (Azure's resource; until then the base URL keeps its braces).
 * A Bedrock provider's credential and region come from the AWS_* variables; a Vertex provider's
 * place and key file from its own (defaultVertex).
 */
function defaultProviders(data: DefaultCatalogData, credentials: Credentials, aws: AwsEnvironment): ProviderEntry[] {
  return data.providers.map((p): ProviderEntry => {
    const baseUrl = resolvedBaseUrl(p, credentials.env);
    const entry: ProviderEntry = {
      slug: p.slug,
      name: p.name,
      api: p.api,
      baseUrl: baseUrl ?? p.baseUrl,
      apiKey: baseUrl === undefined ? undefined : credentials.env[p.env] || undefined,
      headers: {},
      zdr: false,
      dataCollection: "allow",
      envVar: p.env,
      ...(p.api === "azure-openai" ? { azure: { apiVersion: AZURE_DEFAULT_API_VERSION } } : {}),
    };
    if (p.vertexEnv) return { ...entry, ...defaultVertex(p, credentials) };
    if (p.api !== "bedrock") return entry;
    const fromAws = environmentCredential(aws);
    return { ...entry, apiKey: fromAws?.credential, region: fromAws?.region, envVar: AWS_ENVIRONMENT_HINT };
  });
}

/** A gateway.yaml provider replaces the default one of the same slug, keeping its environment key when it names none. */
function overrideProvider(p: ChatProviderConfig, base: ProviderEntry | undefined, credentials: Credentials): ProviderEntry {
  const entry = providerEntry(p, credentials);
  if (!base) return entry;
  return {
    ...entry,
    apiKey: entry.apiKey ?? base.apiKey,
    envVar: base.envVar,
    ...(entry.region === undefined && base.region !== undefined ? { region: base.region } : {}),
  };
}

function defaultModel(m: DefaultModel, providers: Map<string, ProviderEntry>): CatalogModel {
  const endpoints = m.endpoints.flatMap((e): CatalogEndpoint[] => {
    const provider = providers.get(e.provider);
    if (!provider) return [];
    return [
      {
        id: `${provider.slug}/${e.model}`,
        modelId: m.id,
        provider,
        upstreamModel: e.model,
        pricing: priceTable(e.pricing),
        pricingStrings: e.pricing,
        contextLength: e.contextLength,
        maxCompletionTokens: e.maxCompletionTokens,
        quantization: e.quantization,
        supportedParameters: e.supportedParameters,
      },
    ];
  });
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    contextLength: m.contextLength,
    inputModalities: m.inputModalities,
    outputModalities: m.outputModalities,
    endpoints,
    created: m.created,
    knowledgeCutoff: m.knowledgeCutoff,
    reasoning: m.reasoning,
  };
}

/**
 * A gateway.yaml model. With the id of a default model it overrides it: the yaml endpoints
 * replace the default ones (what the operator wrote is what serves the model), and metadata the
 * yaml leaves out (name, description, context, modalities, cutoff) comes from the default.
 */
function modelFromConfig(m: ModelConfig, providers: Map<string, ProviderEntry>, created: number, base?: CatalogModel): CatalogModel {
  const contextLength = m.context_length ?? base?.contextLength ?? DEFAULT_CONTEXT;
  const endpoints: CatalogEndpoint[] = m.endpoints.map((e, i) => {
    const provider = providers.get(e.provider);
    if (!provider) throw new Error(`models: ${m.id} endpoint ${i} names unknown provider '${e.provider}'`);
    return {
      id: `${provider.slug}/${e.model}`,
      modelId: m.id,
      provider,
      upstreamModel: e.model,
      pricing: priceTable(e.pricing),
      pricingStrings: pricingStrings(e.pricing),
      contextLength: e.context_length ?? contextLength,
      maxCompletionTokens: e.max_completion_tokens ?? null,
      quantization: e.quantization ?? null,
      supportedParameters: e.supported_parameters ?? DEFAULT_PARAMETERS,
    };
  });
  return {
    id: m.id,
    name: m.name ?? base?.name ?? m.id,
    description: m.description ?? base?.description ?? "",
    contextLength,
    inputModalities: m.input_modalities ?? base?.inputModalities ?? ["text"],
    outputModalities: m.output_modalities ?? base?.outputModalities ?? ["text"],
    endpoints,
    created: base?.created ?? created,
    knowledgeCutoff: base?.knowledgeCutoff ?? null,
    reasoning: base?.reasoning ?? false,
  };
}

export type CatalogConfig = Pick<Config, "providers" | "models"> & Partial<Pick<Config, "catalog" | "env" | "aws" | "credentialFiles">>;

/**
 * The catalog the gateway routes over: the embedded default catalog (unless `catalog.default`
 * is false; callers that pass no `catalog` get none) with gateway.yaml providers and models
 * merged over it.
 */
export function buildCatalog(config: CatalogConfig, created = Math.floor(Date.now() / 1000), data: DefaultCatalogData = DEFAULT_CATALOG): Catalog {
  const useDefault = config.catalog?.default ?? false;
  const providers = new Map<string, ProviderEntry>();
  const credentials: Credentials = { env: config.env ?? {}, files: config.credentialFiles ?? {} };
  if (useDefault) for (const p of defaultProviders(data, credentials, config.aws ?? {})) providers.set(p.slug, p);
  // video providers serve video_models only (src/videos/video-catalog.ts): chat routing never sees them
  for (const p of config.providers.filter(isChatProvider)) providers.set(p.slug, overrideProvider(p, providers.get(p.slug), credentials));

  const models = new Map<string, CatalogModel>();
  if (useDefault) for (const m of data.models) models.set(m.id, defaultModel(m, providers));
  for (const m of config.models) models.set(m.id, modelFromConfig(m, providers, created, models.get(m.id)));
  return {
    getModel: (id) => models.get(id),
    models: () => [...models.values()],
    providers: () => [...providers.values()],
    getProvider: (slug) => providers.get(slug),
  };
}

// video and media providers serve their own lists only
const isChatProvider = (p: ProviderConfig): p is ChatProviderConfig => !isVideoApi(p.api) && !isMediaApi(p.api);
