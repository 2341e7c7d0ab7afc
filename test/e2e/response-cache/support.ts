// A gateway with the response cache on, in front of a mock upstream that speaks all three
// formats, with an inference key; helpers that read what the cache did.
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

export const PRICING = { prompt: "0.000001", completion: "0.000002" };

/** gateway.yaml: one provider per upstream format, model t/chat served by each, the cache section as given */
export const cacheYaml = (cache: string) => (url: string) =>
  `providers:
  - { slug: chat-up, api: openai-chat, base_url: "${url}", api_key: k }
  - { slug: responses-up, api: openai-responses, base_url: "${url}", api_key: k }
  - { slug: messages-up, api: anthropic-messages, base_url: "${url}", api_key: k }
models:
  - id: t/chat
    endpoints: [{ provider: chat-up, model: up-chat, pricing: { prompt: "${PRICING.prompt}", completion: "${PRICING.completion}" } }]
  - id: t/responses
    endpoints: [{ provider: responses-up, model: up-responses, pricing: { prompt: "${PRICING.prompt}", completion: "${PRICING.completion}" } }]
  - id: t/messages
    endpoints: [{ provider: messages-up, model: up-messages, pricing: { prompt: "${PRICING.prompt}", completion: "${PRICING.completion}" } }]
${cache}`;

export const CACHE_ON = `response_cache:
  enabled: true
  default: on
`;

export function startCacheGateway(cache = CACHE_ON, opts: { env?: Record<string, string>; clock?: () => number } = {}): Promise<GatewayAndUpstream> {
  return startGatewayAndUpstream({ yaml: cacheYaml(cache), ...opts });
}

/** a generation's record through GET /api/v1/generation (management key) */
export async function generation(h: GatewayAndUpstream, id: string): Promise<any> {
  const res = await h.gw.api(`/api/v1/generation?id=${id}`);
  if (res.status !== 200) throw new Error(`generation ${id}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as any).data;
}

/** the key's usage in USD (GET /api/v1/key with the key itself) */
export async function keyUsage(h: GatewayAndUpstream, key = h.key): Promise<number> {
  const res = await h.gw.api("/api/v1/key", { key });
  return ((await res.json()) as any).data.usage;
}
