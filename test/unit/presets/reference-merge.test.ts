// Recognising the three preset reference forms, and the IR-level merge with the system prompt.
import { describe, expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { type InboundFormat, inboundCodecs } from "../../../src/gateway/codecs";
import { decodePresetConfig } from "../../../src/gateway/presets/decode-config";
import { mergePresetIR } from "../../../src/gateway/presets/merge-ir";
import { findPresetReference } from "../../../src/gateway/presets/reference";
import type { IRMessage } from "../../../src/ir/types";

describe("findPresetReference", () => {
  test("model @preset/<slug> drops the model", () => {
    expect(findPresetReference({ model: "@preset/fast", input: "x" })).toEqual({ slug: "fast", body: { input: "x" } });
  });

  test("model <model>@preset/<slug> keeps the model", () => {
    expect(findPresetReference({ model: "openai/gpt-4o@preset/fast" })).toEqual({ slug: "fast", body: { model: "openai/gpt-4o" } });
  });

  test("top-level preset field, with or without the @preset/ prefix", () => {
    expect(findPresetReference({ model: "a/b", preset: "fast" })).toEqual({ slug: "fast", body: { model: "a/b", preset: "fast" } });
    expect(findPresetReference({ preset: "@preset/fast" })?.slug).toBe("fast");
  });

  test("the same slug in both places is fine; different slugs are a 400", () => {
    expect(findPresetReference({ model: "@preset/a", preset: "a" })?.slug).toBe("a");
    expect(() => findPresetReference({ model: "@preset/a", preset: "b" })).toThrow(GatewayError);
  });

  test("no reference, or not an object: null", () => {
    expect(findPresetReference({ model: "a/b" })).toBeNull();
    expect(findPresetReference({})).toBeNull();
    expect(findPresetReference(null)).toBeNull();
    expect(findPresetReference("x")).toBeNull();
  });

  test("an empty slug is a 400", () => {
    const thrown = (() => {
      try {
        findPresetReference({ model: "a/b@preset/" });
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(GatewayError);
    expect((thrown as GatewayError).status).toBe(400);
  });
});

/** The preset (a Chat config) decoded by its codec, merged under the request decoded by its own. */
function merge(format: InboundFormat, request: Record<string, unknown>, preset: { config: Record<string, unknown>; systemPrompt: string | null }) {
  const presetIR = decodePresetConfig("p", "openai-chat", preset.config, new Headers());
  return mergePresetIR(presetIR, inboundCodecs[format].decodeRequest(request), preset.systemPrompt);
}

const system = (...texts: Array<string | { text: string; cacheControl: { type: "ephemeral" } }>): IRMessage => ({
  role: "system",
  content: texts.map((t) => (typeof t === "string" ? { type: "text", text: t } : { type: "text", ...t })),
});
const user: IRMessage = { role: "user", content: [{ type: "text", text: "hi" }] };

describe("mergePresetIR", () => {
  const preset = { config: { model: "p/model", temperature: 0.2, max_tokens: 50 }, systemPrompt: "Preset." };

  test("request fields win over preset fields, each whole", () => {
    const merged = merge(
      "openai-chat",
      { temperature: 0.9, provider: { sort: "price" }, messages: [{ role: "user", content: "hi" }] },
      {
        config: { model: "p/model", temperature: 0.2, provider: { order: ["x"], allow_fallbacks: false } },
        systemPrompt: null,
      },
    );
    expect(merged).toEqual({
      model: "p/model",
      temperature: 0.9,
      provider: { sort: "price" },
      messages: [user],
      stream: false,
      sentParameters: ["temperature"],
    });
  });

  test("a request field wins whatever name either side gave it", () => {
    // the preset's max_completion_tokens and the request's max_tokens are one IR field: the request's
    const merged = merge(
      "openai-chat",
      { max_tokens: 10, messages: [{ role: "user", content: "hi" }] },
      { config: { max_completion_tokens: 99, reasoning_effort: "high" }, systemPrompt: null },
    );
    expect(merged).toMatchObject({ maxOutputTokens: 10, reasoning: { effort: "high" } });
    expect(merged.sentParameters.sort()).toEqual(["max_tokens", "reasoning"]);
  });

  test("a preset's sent parameters count only for the fields it still sets", () => {
    const schemaPreset = { config: { response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } } }, systemPrompt: null };
    const plainText = merge("openai-responses", { input: "hi", text: { format: { type: "text" } } }, schemaPreset);
    expect({ format: plainText.responseFormat, sent: plainText.sentParameters }).toEqual({ format: { type: "text" }, sent: [] });
    const kept = merge("openai-responses", { input: "hi" }, schemaPreset);
    expect(kept.sentParameters).toEqual(["response_format", "structured_outputs"]);
  });

  test("chat: joined into a leading system message of one text, or added as one", () => {
    expect(
      merge(
        "openai-chat",
        {
          messages: [
            { role: "system", content: "Own." },
            { role: "user", content: "hi" },
          ],
        },
        preset,
      ).messages,
    ).toEqual([system("Preset.\n\nOwn."), user]);
    // a one-part array is the same IR as a string: joined too (the Chat hub put the prompt in a part of its own)
    expect(merge("openai-chat", { messages: [{ role: "system", content: [{ type: "text", text: "Own." }] }] }, preset).messages).toEqual([
      system("Preset.\n\nOwn."),
    ]);
    expect(
      merge(
        "openai-chat",
        {
          messages: [
            {
              role: "system",
              content: [
                { type: "text", text: "A" },
                { type: "text", text: "B" },
              ],
            },
          ],
        },
        preset,
      ).messages,
    ).toEqual([system("Preset.", "A", "B")]);
    expect(merge("openai-chat", { messages: [{ role: "user", content: "hi" }] }, preset).messages).toEqual([system("Preset."), user]);
  });

  test("responses: before the instructions, which the result echoes", () => {
    expect(merge("openai-responses", { instructions: "Own.", input: "hi" }, preset)).toEqual({
      model: "p/model",
      temperature: 0.2,
      maxOutputTokens: 50,
      instructions: "Preset.\n\nOwn.",
      messages: [system("Preset.\n\nOwn."), user],
      stream: false,
      sentParameters: ["temperature", "max_tokens"],
    });
    expect(merge("openai-responses", { input: "hi" }, preset).instructions).toBe("Preset.");
    expect(merge("openai-responses", { instructions: null, input: "hi" }, preset).instructions).toBe("Preset.");
  });

  test("messages: before the system text or blocks; a cache breakpoint stays on its block", () => {
    expect(merge("anthropic-messages", { system: "Own.", messages: [] }, preset).messages).toEqual([system("Preset.\n\nOwn.")]);
    expect(
      merge("anthropic-messages", { system: [{ type: "text", text: "Own.", cache_control: { type: "ephemeral" } }], messages: [] }, preset).messages,
    ).toEqual([system("Preset.", { text: "Own.", cacheControl: { type: "ephemeral" } })]);
    expect(merge("anthropic-messages", { messages: [] }, preset)).toMatchObject({
      model: "p/model",
      temperature: 0.2,
      maxOutputTokens: 50,
      messages: [system("Preset.")],
    });
  });
});
