import type { TestGateway } from "../../support/gateway";
import { createInferenceKey } from "../../support/gateway";

/** USD per token: a turn of 10 prompt and 5 completion tokens costs $0.00002. */
const PRICING = `{ prompt: "0.000001", completion: "0.000002" }`;

/**
 * Providers that differ in what guardrails judge: `zdrcloud` keeps no data, `leaky` may train on
 * it (the default data_collection), `freebie` serves for free; each has its own key, so the
 * upstream's authorization header says which one served.
 */
export const guardrailYaml = (url: string) => `
catalog: { default: false }
routing: { circuit_failures: 1000 }
providers:
  - { slug: zdrcloud, name: ZDR Cloud, api: openai-chat, base_url: "${url}", api_key: k-zdr, zdr: true, data_collection: deny }
  - { slug: leaky, name: Leaky, api: openai-chat, base_url: "${url}", api_key: k-leaky }
  - { slug: freebie, name: Freebie, api: openai-chat, base_url: "${url}", api_key: k-free }
  - { slug: mockresp, api: openai-responses, base_url: "${url}", api_key: k-resp, zdr: true, data_collection: deny }
  - { slug: mockanth, api: anthropic-messages, base_url: "${url}", api_key: k-anth, zdr: true, data_collection: deny }
models:
  - id: openai/gpt
    context_length: 100000
    endpoints:
      - { provider: leaky, model: gpt-up, pricing: ${PRICING} }
      - { provider: zdrcloud, model: gpt-up, pricing: ${PRICING} }
  - id: acme/chat
    context_length: 100000
    endpoints:
      - { provider: zdrcloud, model: chat-up, pricing: ${PRICING}, max_completion_tokens: 1000 }
  - id: acme/leaky
    context_length: 100000
    endpoints:
      - { provider: leaky, model: leaky-up, pricing: ${PRICING} }
  - id: acme/free
    context_length: 100000
    endpoints:
      - { provider: freebie, model: free-up }
  - id: acme/resp
    context_length: 100000
    endpoints:
      - { provider: mockresp, model: resp-up, pricing: ${PRICING} }
  - id: acme/anth
    context_length: 100000
    endpoints:
      - { provider: mockanth, model: anth-up, pricing: ${PRICING}, max_completion_tokens: 1000 }
  - id: acme/embed
    context_length: 8192
    output_modalities: [embeddings]
    endpoints:
      - { provider: leaky, model: emb-1, pricing: { prompt: "0.0000001" } }
`;

/** Creates a guardrail through the API and assigns it to the key (or returns it unassigned). */
export async function guardrailFor(gw: TestGateway, body: Record<string, unknown>, keyHash?: string): Promise<string> {
  const res = await gw.api("/api/v1/guardrails", { method: "POST", json: { name: "test guardrail", ...body } });
  if (res.status !== 201) throw new Error(`create guardrail failed: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  if (keyHash) {
    const assigned = await gw.api(`/api/v1/guardrails/${id}/assignments/keys`, { method: "POST", json: { key_hashes: [keyHash] } });
    if (assigned.status !== 200) throw new Error(`assign failed: ${assigned.status} ${await assigned.text()}`);
  }
  return id;
}

/** A fresh inference key under a fresh guardrail. */
export async function guardedKey(gw: TestGateway, rules: Record<string, unknown>): Promise<{ key: string; hash: string; guardrailId: string }> {
  const { key, hash } = await createInferenceKey(gw);
  return { key, hash, guardrailId: await guardrailFor(gw, rules, hash) };
}

export function call(gw: TestGateway, key: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gw.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
