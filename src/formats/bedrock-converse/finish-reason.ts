import type { IRFinishReason } from "../../ir/types";

/**
 * Converse's `stopReason` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax)
 * as the IR's finish reason. A guardrail or the model's own filter stopping the answer is a
 * content filter; output the service could not parse ends as an error.
 */
export function decodeStopReason(reason: string | null | undefined): IRFinishReason {
  switch (reason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "guardrail_intervened":
    case "content_filtered":
      return "content_filter";
    case "malformed_model_output":
    case "malformed_tool_use":
      return "error";
    default:
      return "stop";
  }
}
