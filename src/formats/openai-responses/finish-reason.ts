import type { IRFinishReason } from "../../ir/types";

/** Responses has no finish reason: a response's status (and why it is incomplete) says how it ended. */

export type FinishStatus = { status: "completed" } | { status: "incomplete"; incompleteReason: "max_output_tokens" | "content_filter" };

export function statusForFinish(finish: IRFinishReason): FinishStatus {
  if (finish === "length") return { status: "incomplete", incompleteReason: "max_output_tokens" };
  if (finish === "content_filter") return { status: "incomplete", incompleteReason: "content_filter" };
  return { status: "completed" };
}

/** An upstream response's status → IR; a completed response that called tools is waiting for them. */
export function finishReasonOf(status: unknown, incompleteReason: unknown, sawToolCall: boolean): IRFinishReason {
  if (status === "incomplete") {
    if (incompleteReason === "content_filter") return "content_filter";
    return "length";
  }
  if (status === "failed") return "error";
  return sawToolCall ? "tool_calls" : "stop";
}
