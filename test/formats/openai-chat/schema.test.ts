import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { ChatRequestSchema } from "../../../src/formats/openai-chat/schema";

const app = new Elysia().post("/chat/completions", ({ body }) => body, { body: ChatRequestSchema });

async function post(body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await app.handle(
    new Request("http://gateway.test/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, json: await response.json().catch(() => null) };
}

const minimal = { model: "acme/alpha", messages: [{ role: "user", content: "hi" }] };

const everything = {
  model: "acme/alpha",
  models: ["acme/beta"],
  messages: [
    { role: "system", content: "be brief" },
    { role: "developer", content: [{ type: "text", text: "dev", cache_control: { type: "ephemeral", ttl: "1h" } }] },
    {
      role: "user",
      name: "ann",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "https://x.test/a.png", detail: "high" } },
        { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,AAAA" } },
      ],
    },
    {
      role: "assistant",
      content: null,
      reasoning: "thinking",
      reasoning_details: [
        { type: "reasoning.text", text: "thinking", signature: "sig", format: "anthropic-claude-v1", index: 0 },
        { type: "reasoning.encrypted", data: "opaque", format: "anthropic-claude-v1", index: 1 },
        { type: "reasoning.summary", summary: "sum", id: "rs_1", format: "openai-responses-v1", index: 2 },
      ],
      refusal: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "get", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_1", content: "42" },
  ],
  stream: true,
  stream_options: { include_usage: true },
  temperature: 2,
  top_p: 0,
  top_k: 40,
  top_a: 0.1,
  min_p: 0.05,
  frequency_penalty: -2,
  presence_penalty: 2,
  repetition_penalty: 1.1,
  seed: 7,
  max_tokens: 100,
  max_completion_tokens: 200,
  stop: ["a", "b", "c", "d"],
  logit_bias: { "50256": -100 },
  logprobs: true,
  top_logprobs: 20,
  response_format: { type: "json_schema", json_schema: { name: "out", schema: { type: "object" }, strict: true } },
  tools: [
    { type: "function", function: { name: "get", parameters: { type: "object" } }, cache_control: { type: "ephemeral" } },
    { type: "openrouter:web_search", parameters: { max_results: 3 } },
  ],
  tool_choice: { type: "function", function: { name: "get" } },
  parallel_tool_calls: false,
  reasoning: { effort: "high", summary: "auto" },
  reasoning_effort: "low",
  provider: { order: ["acme-cloud"], allow_fallbacks: false, sort: "price" },
  plugins: [{ id: "web", max_results: 2 }],
  modalities: ["text"],
  prediction: { type: "content", content: "x" },
  metadata: { team: "a" },
  user: "u-1",
  session_id: "s-1",
  trace: { trace_id: "t", extra: 1 },
  service_tier: "flex",
  cache_control: { type: "ephemeral", ttl: "5m" },
  prompt_cache_key: "k",
  prompt_cache_options: { mode: "explicit", ttl: null },
  preset: "my-preset",
  debug: { echo_upstream_body: true },
};

describe("ChatRequestSchema", () => {
  test("accepts a minimal body", async () => {
    expect((await post(minimal)).status).toBe(200);
  });

  test("accepts every contract field at its range limits", async () => {
    const { status, json } = await post(everything);
    expect(status).toBe(200);
    expect((json as { messages: unknown[] }).messages).toHaveLength(5);
  });

  test("accepts nulls where the contract allows them", async () => {
    const nulls = {
      ...minimal,
      temperature: null,
      top_p: null,
      stop: null,
      seed: null,
      logit_bias: null,
      reasoning_effort: null,
      service_tier: null,
      provider: null,
    };
    expect((await post(nulls)).status).toBe(200);
  });

  test("accepts unknown top-level fields", async () => {
    expect((await post({ ...minimal, some_future_field: { a: 1 } })).status).toBe(200);
  });

  const rejected: Array<[string, Record<string, unknown>]> = [
    ["temperature above 2", { temperature: 2.1 }],
    ["temperature below 0", { temperature: -0.1 }],
    ["top_p above 1", { top_p: 1.01 }],
    ["frequency_penalty below -2", { frequency_penalty: -2.5 }],
    ["presence_penalty above 2", { presence_penalty: 3 }],
    ["five stop sequences", { stop: ["a", "b", "c", "d", "e"] }],
    ["top_logprobs above 20", { top_logprobs: 21 }],
    ["top_logprobs below 0", { top_logprobs: -1 }],
    ["no messages", { messages: [] }],
    ["unknown role", { messages: [{ role: "robot", content: "x" }] }],
    ["tool message without tool_call_id", { messages: [{ role: "tool", content: "x" }] }],
    ["user message without content", { messages: [{ role: "user" }] }],
    ["string temperature", { temperature: "hot" }],
    ["fractional seed", { seed: 1.5 }],
    ["bad reasoning effort", { reasoning_effort: "extreme" }],
    ["bad service tier", { service_tier: "gold" }],
    ["malformed function tool", { tools: [{ type: "function", name: "get" }] }],
    ["json_schema without name", { response_format: { type: "json_schema", json_schema: { schema: {} } } }],
    ["metadata value too long", { metadata: { k: "x".repeat(513) } }],
    ["bad cache_control", { cache_control: { type: "persistent" } }],
    ["session_id too long", { session_id: "s".repeat(257) }],
    ["image part without url", { messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] }],
    ["tool call without arguments", { messages: [{ role: "assistant", tool_calls: [{ id: "c", type: "function", function: { name: "f" } }] }] }],
  ];
  for (const [name, patch] of rejected) {
    test(`rejects ${name}`, async () => {
      const { status } = await post({ ...minimal, ...patch });
      expect(status).toBe(422);
    });
  }
});
