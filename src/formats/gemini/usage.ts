import type { IRUsage } from "../../ir/types";
import type { WireUsage } from "./wire";

const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);

/**
 * Gemini's usageMetadata → IR usage. The prompt count already includes the cached tokens
 * (cachedContentTokenCount) and the tool-use prompt is billed as input too; thoughts are counted
 * apart from the candidates, while the IR's output includes reasoning. Gemini has no cache
 * writes to report (explicit caches are created and billed on their own).
 */
export function decodeUsage(wire: WireUsage | undefined): IRUsage {
  const reasoning = count(wire?.thoughtsTokenCount);
  return {
    inputTokens: count(wire?.promptTokenCount) + count(wire?.toolUsePromptTokenCount),
    outputTokens: count(wire?.candidatesTokenCount) + reasoning,
    cachedTokens: count(wire?.cachedContentTokenCount),
    cacheWriteTokens: 0,
    reasoningTokens: reasoning,
  };
}
