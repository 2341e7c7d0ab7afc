import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

let h: GatewayAndUpstream;

const yaml = (url: string) => `
providers:
  - { slug: chat-up, api: openai-chat, base_url: "${url}", api_key: k }
  - { slug: anthropic-up, api: anthropic-messages, base_url: "${url}", api_key: k }
models:
  - id: t/chat
    endpoints: [{ provider: chat-up, model: up-chat, pricing: { prompt: "0.000001", completion: "0.000002" } }]
  - id: t/anthropic
    endpoints: [{ provider: anthropic-up, model: up-anthropic, pricing: { prompt: "0.000001", completion: "0.000002" }, max_completion_tokens: 100 }]
`;

beforeAll(async () => {
  h = await startGatewayAndUpstream({ yaml });
});
afterAll(() => h.close());

async function chat(model: string) {
  h.up.enqueue({ text: "Hi", usage: { input: 4, output: 2 } });
  const res = await fetch(`${h.gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
  });
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("same format in and out", () => {
  test("an openai-chat upstream's own fields reach a Chat client, under the gateway's id, model and charged usage", async () => {
    const { res, body } = await chat("t/chat");
    // the mock answers with service_tier "default", a field the gateway's encoder does not produce
    expect(body.service_tier).toBe("default");
    expect(body.id).toBe(res.headers.get("x-generation-id")!);
    expect(body.model).toBe("t/chat");
    expect([body.usage.prompt_tokens, body.usage.completion_tokens, body.usage.cost]).toEqual([4, 2, 0.000008]);
    expect(body.choices[0].message.content).toBe("Hi");
  });

  test("a translated answer carries only what the gateway encodes", async () => {
    const { body } = await chat("t/anthropic");
    expect("service_tier" in body).toBe(false);
    expect(body.choices[0].message.content).toBe("Hi");
  });
});
