import type { PriceTable } from "../catalog/types";
import type { IRUsage } from "../ir/types";

export type CostBreakdown = {
  /** total charged, integer nano-dollars */
  total: number;
  /** prompt side: uncached input, cache reads, cache writes, images */
  prompt: number;
  /** completion side: output tokens (reasoning included), priced apart when internal_reasoning is set */
  completion: number;
  /** per-request and web-search fees */
  other: number;
};

/**
 * Cost of one generation. `usage.inputTokens` includes cached reads and cache writes (IR
 * convention), so uncached = input - reads - writes, clamped at zero: a provider that reports
 * more cached tokens than prompt tokens must not produce a negative charge.
 */
export function computeCost(price: PriceTable, usage: IRUsage, extras: { images?: number } = {}): CostBreakdown {
  const reads = Math.max(0, usage.cachedTokens);
  const writes = Math.max(0, usage.cacheWriteTokens);
  const writes1h = Math.min(writes, Math.max(0, usage.cacheWrite1hTokens ?? 0));
  const writes5m = writes - writes1h;
  const uncached = Math.max(0, usage.inputTokens - reads - writes);
  const reasoning = Math.min(Math.max(0, usage.reasoningTokens), Math.max(0, usage.outputTokens));
  const reasoningApart = price.internalReasoning > 0;
  const visibleOutput = Math.max(0, usage.outputTokens) - (reasoningApart ? reasoning : 0);

  const prompt =
    uncached * price.prompt +
    reads * price.inputCacheRead +
    writes5m * price.inputCacheWrite +
    writes1h * price.inputCacheWrite1h +
    (extras.images ?? 0) * price.image;
  const completion = visibleOutput * price.completion + (reasoningApart ? reasoning * price.internalReasoning : 0);
  const other = price.request + (usage.webSearchRequests ?? 0) * price.webSearch;
  const promptN = Math.round(prompt);
  const completionN = Math.round(completion);
  const otherN = Math.round(other);
  return { total: promptN + completionN + otherN, prompt: promptN, completion: completionN, other: otherN };
}
