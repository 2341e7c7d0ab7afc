import type { Static } from "elysia";
import type { IRFinishReason } from "../../ir/types";
import type { ChatFinishReasonSchema } from "./schema";

export type ChatFinishReason = Static<typeof ChatFinishReasonSchema>;

/** Chat has no `refusal` finish reason; OpenAI reports refusals as content_filter. */
export function toChatFinishReason(reason: IRFinishReason): ChatFinishReason {
  return reason === "refusal" ? "content_filter" : reason;
}

/**
 * Upstream finish reason → IR. `function_call` is the legacy spelling of tool_calls;
 * a missing reason on a message that called tools means the tools are waiting.
 */
export function fromChatFinishReason(native: string | null | undefined, hasToolCalls: boolean): IRFinishReason {
  switch (native) {
    case "length":
    case "max_tokens":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    case "error":
      return "error";
    case "stop":
      return "stop";
    default:
      return hasToolCalls ? "tool_calls" : "stop";
  }
}
