import { UpstreamFormatError } from "../../ir/codec";
import type { IRAssistantPart, IRResult } from "../../ir/types";
import { finishReasonOf } from "./finish-reason";
import { decodeResponsesUsage } from "./usage";
import type { WireItem, WireResponse } from "./wire";

/** A Responses upstream's JSON body → IR result. Item kinds IR cannot carry (server tool calls) are skipped. */

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const list = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? value.filter((entry) => entry && typeof entry === "object") : []);

/** A reasoning item's text: its summary parts (joined as paragraphs), else its raw reasoning text. */
export function reasoningTextOf(item: WireItem): { summary: boolean; text: string } {
  const summaries = list(item.summary).map((entry) => str(entry.text));
  const raw = list(item.content).map((entry) => str(entry.text));
  const summary = summaries.length > 0 || raw.length === 0;
  return { summary, text: summary ? summaries.join("\n\n") : raw.join("") };
}

export function decodeReasoningItem(item: WireItem): IRAssistantPart {
  const { summary, text } = reasoningTextOf(item);
  const part: IRAssistantPart = { type: "reasoning", text, origin: "openai-responses" };
  if (summary) part.summary = true;
  if (typeof item.id === "string" && item.id !== "") part.id = item.id;
  if (typeof item.encrypted_content === "string" && item.encrypted_content !== "") part.encrypted = item.encrypted_content;
  return part;
}

function decodeItem(item: WireItem): IRAssistantPart[] {
  switch (item.type) {
    case "reasoning":
      return [decodeReasoningItem(item)];
    case "message":
      return list(item.content).flatMap((part): IRAssistantPart[] => {
        if (part.type === "output_text") return [{ type: "text", text: str(part.text) }];
        if (part.type === "refusal") return [{ type: "refusal", refusal: str(part.refusal) }];
        return [];
      });
    case "function_call":
      return [{ type: "tool_call", id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) }];
    default:
      return [];
  }
}

export function decodeResponsesResult(body: unknown): IRResult {
  if (!body || typeof body !== "object") throw new UpstreamFormatError("Responses body is not an object");
  const response = body as WireResponse;
  if (!Array.isArray(response.output)) throw new UpstreamFormatError("Responses body has no output array");
  const content = (response.output as WireItem[]).filter((item) => item && typeof item === "object").flatMap(decodeItem);
  const incompleteReason = response.incomplete_details?.reason;
  const sawToolCall = content.some((part) => part.type === "tool_call");
  return {
    id: str(response.id),
    model: str(response.model),
    content,
    finishReason: finishReasonOf(response.status, incompleteReason, sawToolCall),
    nativeFinishReason: typeof incompleteReason === "string" ? incompleteReason : str(response.status) || null,
    usage: decodeResponsesUsage(response.usage),
  };
}
