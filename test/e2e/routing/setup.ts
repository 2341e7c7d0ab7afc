// One real gateway in front of three mock upstreams, each its own provider (pa, pb, pc).
// r/m is served by pa (cheaper) and pb; r/priced lists the dearer pb first; r/solo is pa only
// and r/other pc only (for `models` fallback). Router state and mocks are reset before each
// test, and the random source is pinned so the default price-weighted pick is the first
// catalog endpoint (pa for r/m).

import { createRouterState } from "../../../src/gateway/routing/router-state";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

export const ROUTING = { first_byte_timeout_ms: 300, circuit_failures: 2, circuit_cooldown_ms: 300 };

const CHEAP = `{ prompt: "0.000001", completion: "0.000002" }`;
const DEAR = `{ prompt: "0.000002", completion: "0.000004" }`;

function yaml(a: string, b: string, c: string): string {
  return `
providers:
  - { slug: pa, api: openai-chat, base_url: "${a}", api_key: ka }
  - { slug: pb, api: openai-chat, base_url: "${b}", api_key: kb }
  - { slug: pc, api: openai-chat, base_url: "${c}", api_key: kc }
models:
  - id: r/m
    endpoints:
      - { provider: pa, model: up-a, pricing: ${CHEAP} }
      - { provider: pb, model: up-b, pricing: ${DEAR} }
  - id: r/priced
    endpoints:
      - { provider: pb, model: up-b, pricing: ${DEAR} }
      - { provider: pa, model: up-a, pricing: ${CHEAP} }
  - id: r/solo
    endpoints: [{ provider: pa, model: up-solo, pricing: ${CHEAP} }]
  - id: r/other
    endpoints: [{ provider: pc, model: up-other, pricing: ${CHEAP} }]
routing: { first_byte_timeout_ms: ${ROUTING.first_byte_timeout_ms}, circuit_failures: ${ROUTING.circuit_failures}, circuit_cooldown_ms: ${ROUTING.circuit_cooldown_ms} }
`;
}

export type RoutingHarness = {
  gw: TestGateway;
  key: string;
  pa: MockUpstream;
  pb: MockUpstream;
  pc: MockUpstream;
  /** clears mocks and the router's circuits, figures and sessions */
  reset(): void;
  chat(body: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
  generation(id: string): Promise<any>;
  close(): Promise<void>;
};

export const META = { "x-service-experimental-metadata": "enabled" };

export const hi = (model = "r/m", extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: "user", content: "hi" }], ...extra });

export async function startRoutingHarness(): Promise<RoutingHarness> {
  const [pa, pb, pc] = await Promise.all([startMockUpstream(), startMockUpstream(), startMockUpstream()]);
  const gw = await startTestGateway({ yaml: yaml(pa.url, pb.url, pc.url) });
  const { key } = await createInferenceKey(gw, { name: "e2e routing" });
  const post = (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    gw.api(path, { method: "POST", key, json: body, headers });
  const h: RoutingHarness = {
    gw,
    key,
    pa,
    pb,
    pc,
    reset() {
      for (const up of [pa, pb, pc]) up.reset();
      Object.assign(gw.ctx.router, createRouterState(gw.ctx.config, gw.ctx.clock), { random: () => 0 });
    },
    chat: (body, headers) => post("/api/v1/chat/completions", body, headers),
    post,
    async generation(id: string) {
      const res = await gw.api(`/api/v1/generation?id=${encodeURIComponent(id)}`, { key });
      if (res.status !== 200) throw new Error(`generation ${id}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: unknown }).data;
    },
    async close() {
      await gw.close();
      await Promise.all([pa.stop(), pb.stop(), pc.stop()]);
    },
  };
  // the first request through a fresh process pays for lazy loading (hundreds of ms on a small
  // machine), which would trip the 300 ms first-byte timeout; pay it here, once per provider
  for (const [model, only] of [
    ["r/m", "pa"],
    ["r/m", "pb"],
    ["r/other", "pc"],
  ] as const) {
    for (const stream of [false, true]) {
      const res = await h.chat(hi(model, { stream, provider: { only: [only] } }));
      await res.text();
    }
  }
  h.reset();
  return h;
}

/** attempts as [provider, status] pairs, from service_metadata */
export const tries = (body: any): Array<[string, number]> => body.service_metadata.attempts.map((a: any) => [a.provider, a.status]);
