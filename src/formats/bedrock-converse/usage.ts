import type { IRUsage } from "../../ir/types";
import type { WireUsage } from "./wire";

const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);

/**
 * Bedrock counts cached prompt tokens apart from `inputTokens` (as Anthropic does); the IR's
 * input includes them, so prompt tokens = inputTokens + cacheReadInputTokens + cacheWriteInputTokens.
 * Converse reports no reasoning-token count.
 */
export function decodeUsage(wire: WireUsage | null | undefined): IRUsage {
  const cachedTokens = count(wire?.cacheReadInputTokens);
  const cacheWriteTokens = count(wire?.cacheWriteInputTokens);
  return {
    inputTokens: count(wire?.inputTokens) + cachedTokens + cacheWriteTokens,
    outputTokens: count(wire?.outputTokens),
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: 0,
  };
}
