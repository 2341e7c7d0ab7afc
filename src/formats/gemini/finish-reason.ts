import type { IRFinishReason } from "../../ir/types";

/**
 * Gemini's FinishReason (https://ai.google.dev/api/generate-content#FinishReason) → the IR's.
 * Output withheld by a filter (the safety family, recitation, blocklists, personal data) is
 * content_filter; a broken or refused tool call is an error; STOP with calls made is tool_calls.
 */
const FILTERED = new Set(["SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION"]);
const FAILED = new Set(["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "MISSING_THOUGHT_SIGNATURE", "MALFORMED_RESPONSE"]);

export function decodeFinishReason(reason: string | undefined, calledTools: boolean): IRFinishReason {
  if (reason === "MAX_TOKENS") return "length";
  if (reason !== undefined && FILTERED.has(reason)) return "content_filter";
  if (reason !== undefined && FAILED.has(reason)) return "error";
  return calledTools ? "tool_calls" : "stop";
}

/** A prompt refused before any candidate (promptFeedback.blockReason) ends as a filtered answer. */
export const BLOCKED_PROMPT: IRFinishReason = "content_filter";
