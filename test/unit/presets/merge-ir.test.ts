// A preset is decoded by the codec of the format that created it and merged under the request at
// the IR level. Whatever endpoint created the preset and whatever endpoint uses it, the merged
// request must mean what the same configuration written natively in the request's own format
// (the preset's fields under the request's) means, for every field both formats can say.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { InboundFormat } from "../../../src/gateway/codecs";
import { decodePresetConfig } from "../../../src/gateway/presets/decode-config";
import { mergePresetIR } from "../../../src/gateway/presets/merge-ir";
import type { IRRequest } from "../../../src/ir/types";
import { common, configFor, decodeRequest, FORMATS, fieldsOf, mergeSpecs, specArb } from "./specs";

const headers = new Headers();
const decodePreset = (format: InboundFormat, config: Record<string, unknown>) => decodePresetConfig("p", format, config, headers);

/**
 * The fields and sent parameters to compare. Two gaps that are the codecs' own, not the merge's:
 * the Messages decoder does not count `structured_outputs` for `output_config.format`, and
 * Anthropic cannot say "no parallel calls" beside tool choice `none` (where it means nothing).
 */
function comparable(ir: IRRequest) {
  const fields = fieldsOf(ir);
  let sent = ir.sentParameters.filter((name) => name !== "structured_outputs");
  if (ir.toolChoice?.type === "none") {
    delete fields.parallelToolCalls;
    sent = sent.filter((name) => name !== "parallel_tool_calls");
  }
  return { fields, sent: [...new Set(sent)].sort() };
}

describe("a preset of one format used from another, at the IR level", () => {
  for (const source of FORMATS) {
    for (const target of FORMATS) {
      test(`${source} config decodes like the same config written for ${target}`, () => {
        fc.assert(
          fc.property(specArb, (spec) => {
            const s = common(spec, source, target);
            expect(fieldsOf(decodePreset(source, configFor(source, s)))).toEqual(fieldsOf(decodeRequest(target, configFor(target, s))));
          }),
          { numRuns: 100 },
        );
      });

      test(`${source} preset under a ${target} request means the native ${target} request with the preset's fields under its own`, () => {
        fc.assert(
          fc.property(specArb, specArb, (presetSpec, requestSpec) => {
            const p = common(presetSpec, source, target);
            const r = common(requestSpec, target, target);
            const merged = mergePresetIR(decodePreset(source, configFor(source, p)), decodeRequest(target, configFor(target, r)), null);
            expect(comparable(merged)).toEqual(comparable(decodeRequest(target, configFor(target, mergeSpecs(p, r)))));
            expect(merged.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
          }),
          { numRuns: 100 },
        );
      });
    }
  }
});

describe("what the Chat-hub translation used to do, at the IR level", () => {
  const request = (format: InboundFormat, config: Record<string, unknown> = {}) => decodeRequest(format, { model: "r/model", ...config });
  const used = (presetFormat: InboundFormat, config: Record<string, unknown>, from: InboundFormat, own: Record<string, unknown> = {}) =>
    mergePresetIR(decodePreset(presetFormat, config), request(from, own), null);

  test("a config decodes to the fields the same body would in a request of its own format", () => {
    const chat = { model: "m", temperature: 0.2, seed: 3, logit_bias: { "1": 2 }, reasoning_effort: "low", stop: "x" };
    expect(fieldsOf(decodePreset("openai-chat", chat))).toEqual(fieldsOf(decodeRequest("openai-chat", chat)));
    expect(decodePreset("openai-chat", chat)).toMatchObject({ seed: 3, logitBias: { "1": 2 }, stop: ["x"], reasoning: { effort: "low" } });
    // truncation, include and verbosity have no IR field: no endpoint's request carries them either
    const responses = { model: "m", max_output_tokens: 5, truncation: "auto", include: ["reasoning.encrypted_content"], text: { verbosity: "low" } };
    expect(decodePreset("openai-responses", responses)).toEqual({ ...decodeRequest("openai-responses", responses), messages: [] });
    const messages = { model: "m", max_tokens: 5, speed: "fast", context_management: { edits: [] }, fallbacks: [{ model: "n" }], top_k: 3 };
    expect(decodePreset("anthropic-messages", messages)).toMatchObject({ model: "m", maxOutputTokens: 5, models: ["n"], topK: 3, messages: [] });
  });

  test("Chat-only fields stay in the IR whichever endpoint the request came through", () => {
    // the Chat hub dropped them for the closed Responses and Messages schemas; the upstream's encoder now decides
    const chat = { model: "m", seed: 3, stop: ["x"], logit_bias: { "1": 2 }, max_completion_tokens: 9, verbosity: "high" };
    for (const from of ["openai-responses", "anthropic-messages"] as const) {
      expect(used("openai-chat", chat, from)).toMatchObject({ model: "r/model", seed: 3, stop: ["x"], logitBias: { "1": 2 }, maxOutputTokens: 9 });
    }
  });

  test("Chat stop strings, reasoning switches and efforts mean what Anthropic's fields mean", () => {
    const reasoningOf = (format: InboundFormat, config: Record<string, unknown>) => decodePreset(format, { model: "m", ...config }).reasoning;
    expect(used("openai-chat", { stop: "END" }, "anthropic-messages").stop).toEqual(request("anthropic-messages", { stop_sequences: ["END"] }).stop!);
    expect(reasoningOf("openai-chat", { reasoning: { enabled: false } })).toEqual(reasoningOf("anthropic-messages", { thinking: { type: "disabled" } }));
    expect(reasoningOf("openai-chat", { reasoning_effort: "none" })).toEqual(reasoningOf("anthropic-messages", { thinking: { type: "disabled" } }));
    expect(reasoningOf("openai-chat", { reasoning: { enabled: true } })).toEqual(reasoningOf("anthropic-messages", { thinking: { type: "adaptive" } }));
    expect(reasoningOf("anthropic-messages", { thinking: { type: "disabled" } })).toEqual(reasoningOf("openai-responses", { reasoning: { enabled: false } }));
    // Anthropic has no "minimal": the IR keeps the preset's own word and the Anthropic encoder maps it
    expect(used("openai-chat", { reasoning_effort: "minimal" }, "anthropic-messages").reasoning).toEqual({ effort: "minimal" });
  });

  test("parallel_tool_calls false without a tool choice reaches a Messages request", () => {
    expect(used("openai-chat", { parallel_tool_calls: false }, "anthropic-messages")).toMatchObject({
      parallelToolCalls: false,
      sentParameters: ["parallel_tool_calls"],
    });
    expect(used("openai-chat", { parallel_tool_calls: true, tool_choice: "none" }, "anthropic-messages")).toMatchObject({
      toolChoice: { type: "none" },
      parallelToolCalls: true,
    });
  });

  test("server tools are the creating format's decoder's business", () => {
    // Chat skips them, for a preset as for a request, whichever endpoint uses the preset
    const tools = [{ type: "openrouter:web_search", parameters: { max_results: 3 } }];
    for (const from of FORMATS) expect(used("openai-chat", { tools }, from).tools).toEqual([]);
    // Responses refuses them: the preset cannot be used, and the 400 names it
    expect(() => decodePreset("openai-responses", { tools: [{ type: "web_search" }] })).toThrow(/^Preset 'p': tool type "web_search" is not supported/);
  });

  test("a Responses schema name survives a Messages request, which could not have named it", () => {
    const text = { format: { type: "json_schema", name: "out", schema: { type: "object" } } };
    expect(used("openai-responses", { text }, "anthropic-messages").responseFormat).toEqual({ type: "json_schema", name: "out", schema: { type: "object" } });
  });
});
