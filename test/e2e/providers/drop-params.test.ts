// providers[].drop_params removes the named top-level fields from every request to that provider:
// fields the client sent (known or passed through unknown) and fields the gateway adds itself,
// for same-format and translated pairs alike. Other providers still get them.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

let h: GatewayAndUpstream;

const yaml = (url: string) => `
providers:
  - { slug: vllm, api: openai-chat, base_url: "${url}", api_key: k, drop_params: [stream_options, chat_template_kwargs, seed] }
  - { slug: plain, api: openai-chat, base_url: "${url}", api_key: k }
  - { slug: anth, api: anthropic-messages, base_url: "${url}", api_key: k, drop_params: [top_k, metadata] }
  - { slug: resp, api: openai-responses, base_url: "${url}", api_key: k, drop_params: [store, include] }
models:
  - { id: t/vllm, endpoints: [{ provider: vllm, model: qwen }] }
  - { id: t/plain, endpoints: [{ provider: plain, model: qwen }] }
  - { id: t/anth, endpoints: [{ provider: anth, model: claude, max_completion_tokens: 100 }] }
  - { id: t/resp, endpoints: [{ provider: resp, model: gpt }] }
`;

beforeAll(async () => {
  h = await startGatewayAndUpstream({ yaml });
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

async function call(path: string, body: Record<string, unknown>): Promise<{ text: string; sent: Record<string, unknown> }> {
  const res = await fetch(`${h.gw.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  expect(h.up.requests.length).toBe(1);
  return { text, sent: h.up.requests[0]!.body as Record<string, unknown> };
}

const has = (body: Record<string, unknown>, keys: string[]) => keys.map((k) => k in body);

describe("same format (chat client, openai-chat upstream)", () => {
  const request = { messages: [{ role: "user", content: "hi" }], stream: true, seed: 7, temperature: 0.5, chat_template_kwargs: { enable_thinking: false } };
  const KEYS = ["stream_options", "chat_template_kwargs", "seed", "temperature"];

  test("the gateway's stream_options, a passed-through field and a known one are dropped; the rest arrives", async () => {
    h.up.enqueue({ text: ["Hel", "lo"], usage: { input: 3, output: 2 } });
    const { text, sent } = await call("/chat/completions", { ...request, model: "t/vllm" });
    expect(has(sent, KEYS)).toEqual([false, false, false, true]);
    expect([sent.model, sent.stream, sent.temperature]).toEqual(["qwen", true, 0.5]);
    // without stream_options the upstream sends no usage chunk; the answer still streams to its end
    expect(text).toContain('"content":"Hel"');
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  test("a provider without drop_params gets every one of them", async () => {
    const { sent } = await call("/chat/completions", { ...request, model: "t/plain" });
    expect(has(sent, KEYS)).toEqual([true, true, true, true]);
  });
});

describe("translated pairs", () => {
  test("chat client, anthropic upstream: top_k the client sent and metadata the gateway builds from `user` are dropped", async () => {
    const { sent } = await call("/chat/completions", { model: "t/anth", messages: [{ role: "user", content: "hi" }], top_k: 5, temperature: 0.5, user: "u-1" });
    expect(has(sent, ["top_k", "metadata", "temperature", "max_tokens"])).toEqual([false, false, true, true]);
  });

  test("messages client, responses upstream: store and include, both the gateway's own, are dropped", async () => {
    const { sent } = await call("/messages", {
      model: "t/resp",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    expect(has(sent, ["store", "include", "reasoning", "max_output_tokens"])).toEqual([false, false, true, true]);
  });
});

test("the same provider from its own format: a responses client's stream, store dropped", async () => {
  const { sent } = await call("/responses", { model: "t/resp", input: "hi", stream: true });
  expect(has(sent, ["store", "stream"])).toEqual([false, true]);
});
