// Format-independent readings of a MockTurn, shared by the three renderers so
// that they agree on defaults.
import type { MockFinish, MockTurn, MockUsage } from "./types.ts";

export const DEFAULT_USAGE: MockUsage = { input: 10, output: 5 };

/** The streamed split of a string | string[]; a plain string is one chunk. */
export function chunksOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : value;
}

export function joined(value: string | string[] | undefined): string {
  return chunksOf(value).join("");
}

export function finishOf(turn: MockTurn): MockFinish {
  if (turn.finish) return turn.finish;
  return turn.toolCalls && turn.toolCalls.length > 0 ? "tool_calls" : "stop";
}

export function usageOf(turn: MockTurn): Required<MockUsage> {
  const u = turn.usage ?? DEFAULT_USAGE;
  return { input: u.input, output: u.output, cached: u.cached ?? 0, cacheWrite: u.cacheWrite ?? 0, reasoning: u.reasoning ?? 0 };
}

export function hasReasoningText(turn: MockTurn): boolean {
  return turn.reasoning !== undefined && joined(turn.reasoning.text) !== "";
}

/** Anthropic tool_use.input must be an object; arguments that are not a JSON object become {}. */
export function parseArguments(args: string | string[]): Record<string, unknown> {
  try {
    const parsed = JSON.parse(joined(args));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function sse(data: unknown, event?: string): { event?: string; data: string } {
  return event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };
}
