import type { IRFinishReason } from "../../ir/types";

export const ANTHROPIC_STOP_REASONS = [
  "end_turn",
  "max_tokens",
  "model_context_window_exceeded",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "compaction",
] as const;

export type AnthropicStopReason = (typeof ANTHROPIC_STOP_REASONS)[number];

export function decodeStopReason(reason: string | null | undefined): IRFinishReason {
  switch (reason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "refusal";
    default:
      return "stop";
  }
}

/**
 * When the upstream was Anthropic too, its own reason (pause_turn,
 * model_context_window_exceeded...) is more precise than what the IR reason maps to,
 * so it is kept as long as it agrees with the IR reason.
 */
export function encodeStopReason(finishReason: IRFinishReason, stopSequence?: string | null, nativeFinishReason?: string | null): AnthropicStopReason {
  if (
    nativeFinishReason &&
    (ANTHROPIC_STOP_REASONS as readonly string[]).includes(nativeFinishReason) &&
    decodeStopReason(nativeFinishReason) === finishReason &&
    (nativeFinishReason !== "stop_sequence" || stopSequence)
  ) {
    return nativeFinishReason as AnthropicStopReason;
  }
  switch (finishReason) {
    case "stop":
      return stopSequence ? "stop_sequence" : "end_turn";
    case "length":
      return "max_tokens";
    case "tool_calls":
      return "tool_use";
    case "content_filter":
    case "refusal":
      return "refusal";
    case "error":
      return "end_turn";
  }
}
