import type { ReasoningEffort } from "../ir/types";

/**
 * Effort levels and token budgets are two dialects of one setting: OpenAI takes an
 * effort, Anthropic a budget. These fractions of the output allowance follow
 * OpenRouter's documented mapping (high 0.8, medium 0.5, low 0.2, minimal 0.1).
 */
const EFFORT_FRACTION: Record<ReasoningEffort, number> = {
  max: 0.95,
  xhigh: 0.9,
  high: 0.8,
  medium: 0.5,
  low: 0.2,
  minimal: 0.1,
  none: 0,
};

/** Anthropic refuses budgets under 1024 tokens. */
export const MIN_THINKING_BUDGET = 1024;
const DEFAULT_OUTPUT_ALLOWANCE = 32_000;

export function budgetFromEffort(effort: ReasoningEffort, maxOutputTokens?: number): number {
  const allowance = maxOutputTokens ?? DEFAULT_OUTPUT_ALLOWANCE;
  return Math.max(MIN_THINKING_BUDGET, Math.floor(allowance * EFFORT_FRACTION[effort]));
}

export function effortFromBudget(budget: number, maxOutputTokens?: number): ReasoningEffort {
  const allowance = maxOutputTokens ?? DEFAULT_OUTPUT_ALLOWANCE;
  const fraction = budget / allowance;
  if (fraction >= 0.8) return "high";
  if (fraction >= 0.4) return "medium";
  if (fraction >= 0.15) return "low";
  return "minimal";
}
