// Recognising the three preset reference forms, and the shallow merge with the system prompt.
import { describe, expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { findPresetReference } from "../../../src/gateway/presets/reference";
import { mergePreset } from "../../../src/gateway/preset-merge";

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

describe("mergePreset", () => {
  const preset = { config: { model: "p/model", temperature: 0.2, max_tokens: 50 }, systemPrompt: "Preset." };

  test("request fields win over preset fields, shallowly", () => {
    const merged = mergePreset("openai-chat", { temperature: 0.9, provider: { sort: "price" }, messages: [{ role: "user", content: "hi" }] }, {
      config: { model: "p/model", temperature: 0.2, provider: { order: ["x"], allow_fallbacks: false } },
      systemPrompt: null,
    });
    expect(merged).toEqual({ model: "p/model", temperature: 0.9, provider: { sort: "price" }, messages: [{ role: "user", content: "hi" }] });
  });

  test("chat: joined into a leading system message, or added as one", () => {
    expect(mergePreset("openai-chat", { messages: [{ role: "system", content: "Own." }, { role: "user", content: "hi" }] }, preset).messages).toEqual([
      { role: "system", content: "Preset.\n\nOwn." },
      { role: "user", content: "hi" },
    ]);
    expect(mergePreset("openai-chat", { messages: [{ role: "system", content: [{ type: "text", text: "Own." }] }] }, preset).messages).toEqual([
      { role: "system", content: [{ type: "text", text: "Preset." }, { type: "text", text: "Own." }] },
    ]);
    expect(mergePreset("openai-chat", { messages: [{ role: "user", content: "hi" }] }, preset).messages).toEqual([
      { role: "system", content: "Preset." },
      { role: "user", content: "hi" },
    ]);
  });

  test("responses: before the instructions", () => {
    expect(mergePreset("openai-responses", { instructions: "Own.", input: "hi" }, preset)).toEqual({
      model: "p/model", temperature: 0.2, max_output_tokens: 50, instructions: "Preset.\n\nOwn.", input: "hi",
    });
    expect(mergePreset("openai-responses", { input: "hi" }, preset).instructions).toBe("Preset.");
    expect(mergePreset("openai-responses", { instructions: null, input: "hi" }, preset).instructions).toBe("Preset.");
  });

  test("messages: before the system text or blocks", () => {
    expect(mergePreset("anthropic-messages", { system: "Own.", messages: [] }, preset).system).toBe("Preset.\n\nOwn.");
    expect(mergePreset("anthropic-messages", { system: [{ type: "text", text: "Own.", cache_control: { type: "ephemeral" } }], messages: [] }, preset).system).toEqual([
      { type: "text", text: "Preset." },
      { type: "text", text: "Own.", cache_control: { type: "ephemeral" } },
    ]);
    expect(mergePreset("anthropic-messages", { messages: [] }, preset)).toEqual({ model: "p/model", temperature: 0.2, max_tokens: 50, system: "Preset.", messages: [] });
  });
});
