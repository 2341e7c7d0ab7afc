import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { ResponsesRequestSchema } from "../../../src/formats/openai-responses";

const app = new Elysia().post("/responses", ({ body }) => body, { body: ResponsesRequestSchema });

async function post(body: unknown): Promise<{ status: number; json: any }> {
  const response = await app.handle(
    new Request("http://gateway.test/responses", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, json: await response.json().catch(() => null) };
}

const minimal = { model: "openai/gpt-5", input: "hi" };

const everything = {
  model: "openai/gpt-5",
  models: ["anthropic/claude"],
  input: [
    { role: "developer", content: "be brief" },
    { type: "message", role: "system", content: [{ type: "input_text", text: "sys" }] },
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "look", prompt_cache_breakpoint: { mode: "explicit" } },
        { type: "input_image", detail: "high", image_url: "https://x.test/a.png" },
        { type: "input_image", image_url: "data:image/png;base64,AAAA" },
        { type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,AAAA" },
        { type: "input_file", file_url: "https://x.test/a.pdf" },
      ],
    },
    { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "hmm" }], encrypted_content: "ENC" },
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [
        { type: "output_text", text: "ok", annotations: [] },
        { type: "refusal", refusal: "no" },
      ],
    },
    { type: "function_call", id: "fc_1", call_id: "call_1", name: "get", arguments: "{}", status: "completed" },
    { type: "function_call_output", call_id: "call_1", output: "42" },
    { type: "function_call_output", call_id: "call_2", output: [{ type: "input_text", text: "43" }] },
  ],
  instructions: "You are terse.",
  stream: true,
  max_output_tokens: 1000,
  max_tool_calls: 30,
  temperature: 2,
  top_p: 0,
  top_k: 40,
  top_logprobs: 20,
  frequency_penalty: -2,
  presence_penalty: 2,
  parallel_tool_calls: false,
  tools: [{ type: "function", name: "get", description: "get it", parameters: { type: "object" }, strict: true }, { type: "web_search_preview" }],
  tool_choice: { type: "function", name: "get" },
  reasoning: { effort: "high", summary: "detailed", enabled: true, max_tokens: 2000, mode: "standard", context: "auto" },
  text: { format: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true }, verbosity: "low" },
  include: ["reasoning.encrypted_content"],
  service_tier: "flex",
  truncation: "auto",
  metadata: { team: "a" },
  background: false,
  prompt: null,
  prompt_cache_key: "k",
  prompt_cache_options: { mode: "explicit", ttl: "1h" },
  cache_control: { type: "ephemeral", ttl: "5m" },
  safety_identifier: "safe-1",
  user: "u-1",
  session_id: "s-1",
  modalities: ["text"],
  image_config: { size: "1024x1024", n: 1 },
  provider: { order: ["openai"], allow_fallbacks: false },
  plugins: [{ id: "web" }],
  trace: { trace_id: "t" },
  preset: "p",
  stop_server_tools_when: [],
  debug: { echo_upstream_body: true },
  store: false,
  previous_response_id: null,
};

describe("ResponsesRequestSchema", () => {
  test("accepts a minimal body", async () => {
    expect((await post(minimal)).status).toBe(200);
  });

  test("accepts every contract field", async () => {
    const { status, json } = await post(everything);
    expect(status).toBe(200);
    expect(json.input).toHaveLength(8);
  });

  test("accepts nulls where the contract allows them", async () => {
    const nulls = {
      ...minimal,
      instructions: null,
      max_output_tokens: null,
      temperature: null,
      top_p: null,
      reasoning: null,
      metadata: null,
      service_tier: null,
      include: null,
      provider: null,
      previous_response_id: null,
    };
    expect((await post(nulls)).status).toBe(200);
  });

  test("accepts store: true and a previous_response_id", async () => {
    expect((await post({ ...minimal, store: true, previous_response_id: "gen-1-abc" })).status).toBe(200);
  });

  test("accepts an item_reference in input", async () => {
    expect((await post({ ...minimal, input: [{ type: "item_reference", id: "msg_1" }] })).status).toBe(200);
  });

  test("rejects an empty previous_response_id or item_reference id, naming the field", async () => {
    const empty = await post({ ...minimal, previous_response_id: "" });
    expect(empty.status).toBe(422);
    expect(empty.json.property).toBe("/previous_response_id");
    expect((await post({ ...minimal, input: [{ type: "item_reference", id: "" }] })).status).toBe(422);
  });

  const rejected: Array<[string, Record<string, unknown>]> = [
    ["temperature above 2", { temperature: 2.1 }],
    ["top_p above 1", { top_p: 1.5 }],
    ["top_logprobs above 20", { top_logprobs: 21 }],
    ["fractional max_output_tokens", { max_output_tokens: 10.5 }],
    ["bad reasoning effort", { reasoning: { effort: "extreme" } }],
    ["bad reasoning summary", { reasoning: { summary: "verbose" } }],
    ["bad service tier", { service_tier: "gold" }],
    ["unknown role", { input: [{ role: "robot", content: "x" }] }],
    ["function_call without call_id", { input: [{ type: "function_call", name: "f", arguments: "{}" }] }],
    ["function_call_output without output", { input: [{ type: "function_call_output", call_id: "c" }] }],
    ["reasoning item without id", { input: [{ type: "reasoning", summary: [] }] }],
    ["unknown part type", { input: [{ role: "user", content: [{ type: "input_sound", data: "x" }] }] }],
    ["function tool without name", { tools: [{ type: "function", parameters: {} }] }],
    ["unknown tool type", { tools: [{ type: "teleport" }] }],
    ["bad tool_choice", { tool_choice: "sometimes" }],
    ["json_schema format without schema", { text: { format: { type: "json_schema", name: "x" } } }],
    ["metadata value too long", { metadata: { k: "x".repeat(513) } }],
    ["bad include value", { include: ["everything"] }],
    ["bad truncation", { truncation: "middle" }],
    ["session_id too long", { session_id: "s".repeat(257) }],
  ];
  for (const [name, patch] of rejected) {
    test(`rejects ${name}`, async () => {
      expect((await post({ ...minimal, ...patch })).status).toBe(422);
    });
  }
});
