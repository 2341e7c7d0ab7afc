import type { EndpointStats } from "../../catalog/live-stats";
import type { CatalogEndpoint, CatalogModel, ProviderEntry } from "../../catalog/types";
import type { Health } from "../../gateway/routing/circuit";
import { upstreamApis } from "../../providers/apis";
import type { ModelWire, PublicEndpointWire } from "./model";

/** Catalog records to the wire shapes of the contract. */

function pricingWire(e: CatalogEndpoint | undefined): ModelWire["pricing"] {
  const s = e?.pricingStrings ?? {};
  const out: ModelWire["pricing"] = { prompt: s.prompt ?? "0", completion: s.completion ?? "0" };
  for (const [k, v] of Object.entries(s)) if (v !== undefined && k !== "prompt" && k !== "completion") (out as unknown as Record<string, string>)[k] = v;
  return out;
}

/** "text+image->text", as OpenRouter writes architecture.modality */
export function modalityString(m: CatalogModel): string {
  return `${m.inputModalities.join("+")}->${m.outputModalities.join("+")}`;
}

/** every parameter some endpoint supports, in first-seen order */
function unionParameters(endpoints: CatalogEndpoint[]): string[] {
  const seen = new Set<string>();
  for (const e of endpoints) for (const p of e.supportedParameters) seen.add(p);
  return [...seen];
}

export const detailsPath = (modelId: string) => `/api/v1/models/${modelId}/endpoints`;

/**
 * The Model record. `endpoints` is what the caller may use (all of them for /models, the
 * usable ones for /models/user); the first one stands for the model's price and limits.
 */
export function modelWire(m: CatalogModel, endpoints: CatalogEndpoint[] = m.endpoints): ModelWire {
  const top = endpoints[0];
  return {
    id: m.id,
    canonical_slug: m.id,
    hugging_face_id: null,
    name: m.name,
    created: m.created,
    description: m.description,
    context_length: m.contextLength,
    architecture: {
      input_modalities: m.inputModalities,
      output_modalities: m.outputModalities,
      modality: modalityString(m),
      tokenizer: "Other",
      instruct_type: null,
    },
    pricing: pricingWire(top),
    top_provider: { context_length: top?.contextLength ?? m.contextLength, max_completion_tokens: top?.maxCompletionTokens ?? null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: unionParameters(endpoints),
    supported_voices: m.supportedVoices ?? null,
    default_parameters: null,
    knowledge_cutoff: m.knowledgeCutoff ?? null,
    expiration_date: null,
    links: { details: detailsPath(m.id) },
  };
}

/** Endpoint status as OpenRouter reports it: 0 serving, -2 failing (circuit open), -1 being probed. */
const STATUS: Record<Health, number> = { healthy: 0, probe: -1, open: -2 };

export function endpointWire(m: CatalogModel, e: CatalogEndpoint, stats: EndpointStats, health: Health): PublicEndpointWire {
  const toolChoice = e.supportedParameters.includes("tool_choice");
  return {
    name: `${e.provider.name} | ${m.id}`,
    model_id: m.id,
    model_name: m.name,
    context_length: e.contextLength,
    pricing: pricingWire(e),
    provider_name: e.provider.name,
    tag: e.quantization ? `${e.provider.slug}/${e.quantization}` : e.provider.slug,
    quantization: e.quantization,
    max_completion_tokens: e.maxCompletionTokens,
    max_prompt_tokens: null,
    supported_parameters: e.supportedParameters,
    status: STATUS[health],
    uptime_last_5m: stats.uptimeLast5m,
    uptime_last_30m: stats.uptimeLast30m,
    uptime_last_1d: stats.uptimeLast1d,
    // caching without cache_control markers, where the endpoint prices cache reads: not Anthropic's bodies (Claude on Vertex too)
    supports_implicit_caching:
      e.pricing.inputCacheRead > 0 &&
      upstreamApis[e.provider.api].cachesImplicitly &&
      upstreamApis[e.provider.api].format(e.upstreamModel) !== "anthropic-messages",
    supports_tool_choice: { auto: toolChoice, none: toolChoice, required: toolChoice, function: toolChoice },
    latency_last_30m: stats.latencyLast30m,
    throughput_last_30m: stats.throughputLast30m,
  };
}

export function providerWire(p: ProviderEntry) {
  return { name: p.name, slug: p.slug, privacy_policy_url: null, terms_of_service_url: null, status_page_url: null };
}
