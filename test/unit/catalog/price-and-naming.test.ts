import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalName } from "../../../src/catalog/models-dev-naming";
import { perMillionToPerToken } from "../../../src/catalog/price-string";

describe("perMillionToPerToken", () => {
  test("exact decimal strings", () => {
    expect(perMillionToPerToken(1.25)).toBe("0.00000125");
    expect(perMillionToPerToken(10)).toBe("0.00001");
    expect(perMillionToPerToken(0.13)).toBe("0.00000013");
    expect(perMillionToPerToken(0.075)).toBe("0.000000075");
    expect(perMillionToPerToken(3.75)).toBe("0.00000375");
    expect(perMillionToPerToken(2_000_000)).toBe("2");
    expect(perMillionToPerToken(0)).toBe("0");
    expect(perMillionToPerToken(-1)).toBe("0");
  });

  test("property: a million tokens cost the per-million figure (to 10 decimals)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), (tenBillionths) => {
        const perMillion = tenBillionths / 1e4; // prices with up to 4 decimals per million
        const s = perMillionToPerToken(perMillion);
        expect(s).toMatch(/^\d+(\.\d*[1-9])?$/);
        expect(Number(s) * 1e6).toBeCloseTo(perMillion, 6);
      }),
    );
  });
});

describe("canonicalName", () => {
  test("the same model gets one id across providers", () => {
    expect(canonicalName("groq", "openai/gpt-oss-120b").id).toBe("openai/gpt-oss-120b");
    expect(canonicalName("cerebras", "gpt-oss-120b").id).toBe("openai/gpt-oss-120b");
    expect(canonicalName("fireworks-ai", "accounts/fireworks/models/gpt-oss-120b").id).toBe("openai/gpt-oss-120b");
    expect(canonicalName("openai", "gpt-5").id).toBe("openai/gpt-5");
    expect(canonicalName("openrouter", "openai/gpt-5").id).toBe("openai/gpt-5");
  });

  test("anthropic dates and version dashes", () => {
    expect(canonicalName("anthropic", "claude-3-7-sonnet-20250219").id).toBe("anthropic/claude-3.7-sonnet");
    expect(canonicalName("anthropic", "claude-opus-4-1-20250805").id).toBe("anthropic/claude-opus-4.1");
    expect(canonicalName("anthropic", "claude-sonnet-4-20250514").id).toBe("anthropic/claude-sonnet-4");
  });

  test("namespaces, aliases and quantization suffixes", () => {
    expect(canonicalName("togetherai", "deepseek-ai/DeepSeek-R1")).toEqual({ id: "deepseek/deepseek-r1", author: "deepseek", quantization: null });
    expect(canonicalName("togetherai", "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8")).toEqual({
      id: "qwen/qwen3-coder-480b-a35b-instruct",
      author: "qwen",
      quantization: "fp8",
    });
    expect(canonicalName("chutes", "chutesai/Devstral-Small-2505").id).toBe("mistralai/devstral-small-2505");
    expect(canonicalName("venice", "llama-3.3-70b").id).toBe("meta-llama/llama-3.3-70b");
    expect(canonicalName("xai", "grok-4").id).toBe("x-ai/grok-4");
    expect(canonicalName("inception", "mercury").id).toBe("inception/mercury");
    expect(canonicalName("morph", "auto").id).toBe("morph/auto");
    expect(canonicalName("openrouter", "deepseek/deepseek-r1:free").id).toBe("deepseek/deepseek-r1:free");
  });
});
