import { isJsonObject, type JsonObject } from "../json-object";
import type { ReasoningShape } from "./output-items";

/**
 * Reasoning reaches a Responses client in the shape its request asked for (`reasoning.summary`
 * set: summary_text parts; else reasoning_text content), whatever the upstream sent, passthrough
 * included: clients read only one of the two (the AI SDK and LangChain summaries,
 * @openrouter/agent reasoning_text).
 */

const texts = (parts: unknown, type: string): string[] =>
  Array.isArray(parts)
    ? parts.filter((p): p is JsonObject => isJsonObject(p) && p.type === type && typeof p.text === "string").map((p) => p.text as string)
    : [];

/** A reasoning output item in the request's shape; any other item as it is. */
export function inRequestShape(item: JsonObject, shape: ReasoningShape): JsonObject {
  if (item.type !== "reasoning") return item;
  const summaries = texts(item.summary, "summary_text");
  const raw = texts(item.content, "reasoning_text");
  if (shape === "reasoning_text" && summaries.length > 0 && raw.length === 0) {
    return { ...item, summary: [], content: [{ type: "reasoning_text", text: summaries.join("\n\n") }] };
  }
  if (shape === "summary_text" && raw.length > 0 && summaries.length === 0) {
    const { content: _content, ...rest } = item;
    return { ...rest, summary: [{ type: "summary_text", text: raw.join("") }] };
  }
  return item;
}

type Reshaping = { text: string; opened: boolean; parts: number };

/**
 * The events of reasoning items streamed in the other shape, renamed into the request's: summary
 * parts become one reasoning_text content part (several parts joined by a blank line, as the
 * non-streamed item joins them), or the reasoning_text part becomes summary part 0. The renamed
 * part closes right before its item does.
 */
export class ReasoningEventShaper {
  /** reasoning items being renamed, by item id */
  private readonly reshaping = new Map<string, Reshaping>();

  constructor(private readonly shape: ReasoningShape) {}

  /** the events to send for one upstream event (none, itself, or renamed ones) */
  events(data: JsonObject): JsonObject[] {
    const itemId = typeof data.item_id === "string" ? data.item_id : isJsonObject(data.item) && typeof data.item.id === "string" ? data.item.id : undefined;
    if (itemId === undefined) return [data];
    const foreign = this.shape === "reasoning_text" ? isSummaryEvent(data) : isRawReasoningEvent(data);
    if (foreign) return this.renamed(itemId, data);
    if (data.type === "response.output_item.done" && this.reshaping.has(itemId)) return [...this.close(itemId, data), data];
    return [data];
  }

  private renamed(itemId: string, data: JsonObject): JsonObject[] {
    const state = this.reshaping.get(itemId) ?? { text: "", opened: false, parts: 0 };
    this.reshaping.set(itemId, state);
    const where = { item_id: itemId, output_index: data.output_index };
    const delta = typeof data.delta === "string" ? data.delta : "";
    if (this.shape === "reasoning_text") {
      if (data.type === "response.reasoning_summary_part.added") {
        state.parts++;
        if (state.opened) return state.text === "" ? [] : [this.delta(state, where, "\n\n")];
        state.opened = true;
        return [{ type: "response.content_part.added", ...where, content_index: 0, part: { type: "reasoning_text", text: "" } }];
      }
      if (data.type === "response.reasoning_summary_text.delta") return delta === "" ? [] : [this.delta(state, where, delta)];
      // the part and its text close once, when the item does
      return [];
    }
    if (data.type === "response.content_part.added") {
      state.opened = true;
      return [{ type: "response.reasoning_summary_part.added", ...where, summary_index: 0, part: { type: "summary_text", text: "" } }];
    }
    if (data.type === "response.reasoning_text.delta") return delta === "" ? [] : [this.delta(state, where, delta)];
    return [];
  }

  private delta(state: Reshaping, where: JsonObject, delta: string): JsonObject {
    state.text += delta;
    return this.shape === "reasoning_text"
      ? { type: "response.reasoning_text.delta", ...where, content_index: 0, delta }
      : { type: "response.reasoning_summary_text.delta", ...where, summary_index: 0, delta };
  }

  private close(itemId: string, done: JsonObject): JsonObject[] {
    const state = this.reshaping.get(itemId)!;
    this.reshaping.delete(itemId);
    if (!state.opened) return [];
    const where = { item_id: itemId, output_index: done.output_index };
    return this.shape === "reasoning_text"
      ? [
          { type: "response.reasoning_text.done", ...where, content_index: 0, text: state.text },
          { type: "response.content_part.done", ...where, content_index: 0, part: { type: "reasoning_text", text: state.text } },
        ]
      : [
          { type: "response.reasoning_summary_text.done", ...where, summary_index: 0, text: state.text },
          { type: "response.reasoning_summary_part.done", ...where, summary_index: 0, part: { type: "summary_text", text: state.text } },
        ];
  }
}

const isSummaryEvent = (data: JsonObject): boolean => typeof data.type === "string" && data.type.startsWith("response.reasoning_summary_");

/** A reasoning_text event, or a content part event of reasoning_text (message parts are output_text). */
function isRawReasoningEvent(data: JsonObject): boolean {
  if (typeof data.type !== "string") return false;
  if (data.type.startsWith("response.reasoning_text.")) return true;
  return (
    (data.type === "response.content_part.added" || data.type === "response.content_part.done") &&
    isJsonObject(data.part) &&
    data.part.type === "reasoning_text"
  );
}
