// What a create endpoint keeps of an inference body: config fields verbatim, the
// instructions as the system prompt, nothing transient.
import { describe, expect, test } from "bun:test";
import { CONFIG_FIELDS, extractPreset } from "../../../src/gateway/presets/extract-config";

const TRANSIENT = [
  "input",
  "messages",
  "stream",
  "stream_options",
  "prompt",
  "metadata",
  "user",
  "session_id",
  "trace",
  "preset",
  "debug",
  "instructions",
  "system",
  "prediction",
  "background",
  "store",
  "previous_response_id",
  "prompt_cache_key",
  "safety_identifier",
];

describe("extractPreset", () => {
  test("no format keeps a transient field", () => {
    for (const fields of Object.values(CONFIG_FIELDS)) for (const field of TRANSIENT) expect(fields.has(field)).toBe(false);
  });

  test("chat: every config field kept verbatim, unknown extras dropped", () => {
    const body = {
      model: "m",
      seed: 1,
      logit_bias: { "5": 1 },
      reasoning_effort: "low",
      verbosity: "low",
      unknown_thing: 1,
      messages: [{ role: "user", content: "x" }],
      stream: false,
    };
    expect(extractPreset("openai-chat", body)).toEqual({
      config: { model: "m", seed: 1, logit_bias: { "5": 1 }, reasoning_effort: "low", verbosity: "low" },
      systemPrompt: null,
    });
  });

  test("chat system prompt: system and developer messages in order, text parts joined, empty ones skipped", () => {
    const messages = [
      { role: "system", content: "" },
      {
        role: "developer",
        content: [
          { type: "text", text: "A" },
          { type: "text", text: "B" },
        ],
      },
      { role: "user", content: "x" },
      { role: "system", content: "C" },
    ];
    expect(extractPreset("openai-chat", { messages }).systemPrompt).toBe("AB\n\nC");
  });

  test("responses: empty or null instructions are no system prompt", () => {
    expect(extractPreset("openai-responses", { instructions: "" }).systemPrompt).toBeNull();
    expect(extractPreset("openai-responses", { instructions: null }).systemPrompt).toBeNull();
    expect(extractPreset("openai-responses", { truncation: "auto", include: ["reasoning.encrypted_content"], max_tool_calls: 2 }).config).toEqual({
      truncation: "auto",
      include: ["reasoning.encrypted_content"],
      max_tool_calls: 2,
    });
  });

  test("messages: Anthropic-only config fields kept", () => {
    const body = {
      model: "m",
      messages: null,
      speed: "fast",
      fallbacks: [{ model: "n" }],
      context_management: { edits: [] },
      output_config: { effort: "low" },
      metadata: { user_id: "u" },
    };
    expect(extractPreset("anthropic-messages", body)).toEqual({
      config: { model: "m", speed: "fast", fallbacks: [{ model: "n" }], context_management: { edits: [] }, output_config: { effort: "low" } },
      systemPrompt: null,
    });
  });
});
