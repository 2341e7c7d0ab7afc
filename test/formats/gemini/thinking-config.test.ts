import { describe, expect, test } from "bun:test";
import { encodeThinkingConfig, thinkingFamily } from "../../../src/formats/gemini/thinking-config";
import type { IRReasoningConfig, ReasoningEffort } from "../../../src/ir/types";

const config = (reasoning: IRReasoningConfig | undefined, model: string, maxOutputTokens?: number) =>
  encodeThinkingConfig({ reasoning, maxOutputTokens }, model);
const EFFORTS: ReasoningEffort[] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

describe("gemini thinkingConfig", () => {
  test("Gemini 3 and later take a level, rounded up to one the model has", () => {
    const levels = (model: string) => EFFORTS.map((effort) => config({ effort }, model)?.thinkingLevel);
    expect(levels("gemini-3-flash-preview")).toEqual(["MINIMAL", "MINIMAL", "LOW", "MEDIUM", "HIGH", "HIGH", "HIGH"]);
    expect(levels("gemini-3-pro-preview")).toEqual(["LOW", "LOW", "LOW", "HIGH", "HIGH", "HIGH", "HIGH"]);
    expect(levels("gemini-3.1-pro-preview")).toEqual(["LOW", "LOW", "LOW", "MEDIUM", "HIGH", "HIGH", "HIGH"]);
    expect(config({ effort: "low" }, "gemini-3-flash-preview")).toEqual({ includeThoughts: true, thinkingLevel: "LOW" });
    // off: the lowest level, and no thoughts asked for (Gemini 3 cannot stop thinking)
    expect(config({ enabled: false }, "gemini-3-flash-preview")).toEqual({ thinkingLevel: "MINIMAL" });
    // a budget becomes the effort it is a share of
    expect(config({ maxTokens: 1000 }, "gemini-3-flash-preview", 10_000)).toEqual({ includeThoughts: true, thinkingLevel: "MINIMAL" });
    expect(config({ maxTokens: 9000 }, "gemini-3-flash-preview", 10_000)).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });
  });

  test("Gemini 2.5 takes Google's budget table, clamped to the model's range", () => {
    const budgets = (model: string) => EFFORTS.map((effort) => config({ effort }, model)?.thinkingBudget);
    expect(budgets("gemini-2.5-flash")).toEqual([0, 1024, 1024, 8192, 24_576, 24_576, 24_576]);
    expect(budgets("gemini-2.5-pro")).toEqual([128, 1024, 1024, 8192, 24_576, 24_576, 24_576]);
    expect(config({ maxTokens: 50_000 }, "gemini-2.5-pro")).toEqual({ includeThoughts: true, thinkingBudget: 32_768 });
    expect(config({ maxTokens: 2000 }, "gemini-2.5-flash")).toEqual({ includeThoughts: true, thinkingBudget: 2000 });
    expect(config({ enabled: true }, "gemini-2.5-flash")).toEqual({ includeThoughts: true, thinkingBudget: 8192 });
    expect(config({ enabled: false }, "gemini-2.5-flash")).toEqual({ thinkingBudget: 0 });
  });

  test("nothing asked, or a model that does not think: no thinkingConfig", () => {
    expect(config(undefined, "gemini-2.5-flash")).toBeUndefined();
    expect(config({ summary: "auto" }, "gemini-2.5-flash")).toBeUndefined();
    expect(config({ effort: "high" }, "gemini-2.0-flash")).toBeUndefined();
    expect(config({ effort: "high" }, "gemini-1.5-pro")).toBeUndefined();
  });

  test("families by model id", () => {
    expect(thinkingFamily("gemini-2.5-flash-lite").kind).toBe("budget");
    expect(thinkingFamily("publishers/google/models/gemini-3.5-flash").kind).toBe("level");
    expect(thinkingFamily("my-tuned-model").kind).toBe("level");
  });
});
