import type { TestGateway } from "../../support/gateway";
import { type MockUpstream, type RecordedRequest, startMockUpstream } from "../../support/mock-upstream";

/**
 * `mock` has the gateway's own key; `solo` has none, so only BYOK credentials serve it.
 * Each request costs 10 x $0.00001 + 5 x $0.0001 = $0.0006 with the default mock usage.
 */
export const byokYaml = (url: string) => `
catalog: { default: false }
routing: { circuit_failures: 1000 }
providers:
  - { slug: mock, api: openai-chat, base_url: "${url}", api_key: gateway-own-key }
  - { slug: solo, api: openai-chat, base_url: "${url}" }
models:
  - id: test/alpha
    context_length: 100000
    endpoints:
      - { provider: mock, model: alpha-1, pricing: { prompt: "0.00001", completion: "0.0001" }, max_completion_tokens: 100 }
  - id: test/beta
    context_length: 100000
    endpoints:
      - { provider: mock, model: beta-1, pricing: { prompt: "0.00001", completion: "0.0001" }, max_completion_tokens: 100 }
  - id: test/solo
    context_length: 100000
    endpoints:
      - { provider: solo, model: solo-1, pricing: { prompt: "0.00001", completion: "0.0001" }, max_completion_tokens: 100 }
`;

export const COST = 10 * 0.00001 + 5 * 0.0001;

/** A mock upstream that refuses (401) any bearer key in `failing` and otherwise answers. */
export async function keyCheckingUpstream(): Promise<{ up: MockUpstream; failing: Set<string>; keysSeen: (from?: number) => string[] }> {
  const up = await startMockUpstream();
  const failing = new Set<string>();
  const bearer = (r: RecordedRequest) => (r.headers.authorization ?? "").replace(/^Bearer /, "");
  up.setHandler((req) =>
    failing.has(bearer(req))
      ? { status: 401, errorBody: { error: { message: "invalid api key", type: "invalid_request_error", code: "invalid_api_key" } } }
      : { text: "ok", usage: { input: 10, output: 5 } },
  );
  return { up, failing, keysSeen: (from = 0) => up.requests.slice(from).map(bearer) };
}

export async function json(res: Response): Promise<any> {
  return res.json();
}

export async function createByok(gw: TestGateway, body: Record<string, unknown>): Promise<any> {
  const res = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "mock", ...body } });
  if (res.status !== 201) throw new Error(`create byok: ${res.status} ${await res.text()}`);
  return ((await res.json()) as any).data;
}

export function chat(gw: TestGateway, key: string, body: Record<string, unknown> = {}): Promise<Response> {
  return gw.api("/api/v1/chat/completions", {
    method: "POST",
    key,
    json: { model: "test/alpha", messages: [{ role: "user", content: "hi" }], max_tokens: 5, ...body },
  });
}
