// Which codec reads a preset version: the format recorded when it was created, else (versions
// written before formats were recorded) the one its field names and tool shapes say.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decodePresetConfig } from "../../../src/gateway/presets/decode-config";
import { inferPresetFormat, presetFormat } from "../../../src/gateway/presets/stored-format";
import type { PresetVersionRecord } from "../../../src/store/store";
import { configFor, FORMATS, specArb } from "./specs";

const version = (config: Record<string, unknown>, format: PresetVersionRecord["format"]): PresetVersionRecord => ({
  id: "v",
  presetId: "p",
  version: 1,
  config,
  systemPrompt: null,
  format,
  creatorId: null,
  createdAt: 0,
  updatedAt: 0,
});

describe("presetFormat", () => {
  test("the recorded format wins over what the fields say", () => {
    expect(presetFormat(version({ max_output_tokens: 5 }, "openai-chat"))).toBe("openai-chat");
    expect(presetFormat(version({ max_output_tokens: 5 }, null))).toBe("openai-responses");
  });
});

describe("inferPresetFormat", () => {
  test("a field only one create endpoint keeps names its format", () => {
    for (const key of ["max_output_tokens", "text", "include", "truncation", "max_tool_calls"])
      expect(inferPresetFormat({ model: "m", [key]: 1 })).toBe("openai-responses");
    for (const key of ["thinking", "stop_sequences", "output_config", "fallbacks", "context_management", "speed", "safeguards"])
      expect(inferPresetFormat({ model: "m", [key]: 1 })).toBe("anthropic-messages");
    for (const key of ["stop", "seed", "response_format", "max_completion_tokens", "reasoning_effort", "logit_bias", "verbosity"])
      expect(inferPresetFormat({ model: "m", [key]: 1 })).toBe("openai-chat");
  });

  test("tool and tool choice shapes decide between formats that share every field name", () => {
    expect(inferPresetFormat({ tools: [{ name: "f", input_schema: {} }] })).toBe("anthropic-messages");
    expect(inferPresetFormat({ max_tokens: 5, tools: [{ type: "custom", name: "f", input_schema: {} }] })).toBe("anthropic-messages");
    expect(inferPresetFormat({ tools: [{ type: "function", name: "f" }] })).toBe("openai-responses");
    expect(inferPresetFormat({ tools: [{ type: "function", function: { name: "f" } }], max_tokens: 5 })).toBe("openai-chat");
    expect(inferPresetFormat({ tool_choice: { type: "any" } })).toBe("anthropic-messages");
    expect(inferPresetFormat({ tool_choice: { type: "function", name: "f" } })).toBe("openai-responses");
    expect(inferPresetFormat({ tool_choice: "required", max_tokens: 5 })).toBe("openai-chat");
  });

  test("fields every format shares, or none: Chat, which reads them as the others would", () => {
    expect(inferPresetFormat({})).toBe("openai-chat");
    expect(inferPresetFormat({ model: "m", temperature: 1, provider: { sort: "price" } })).toBe("openai-chat");
  });

  test("any config of any format is read by the inferred codec as by its own", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), specArb, (format, spec) => {
        const config = configFor(format, spec);
        // sentParameters is a set (routing asks `includes`, merging makes a Set): each decoder lists it in its own order
        const decode = (f: typeof format) => {
          const ir = decodePresetConfig("p", f, config, new Headers());
          return { ...ir, sentParameters: [...ir.sentParameters].sort() };
        };
        expect(decode(inferPresetFormat(config))).toEqual(decode(format));
      }),
      { numRuns: 300 },
    );
  });
});
