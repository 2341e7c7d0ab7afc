import { Value } from "@sinclair/typebox/value";
import { InputItem } from "./schema-messages";

/**
 * What the Responses API says about state in its bodies: `input` items that refer to stored
 * ones (`{type: "item_reference", id}`), and the terminal response object a stream ends with.
 * The gateway keeps and looks up the items (src/gateway/responses-state.ts); reading them is the format's.
 */
export type ItemReference = { type: "item_reference"; id: string };

export const isItemReference = (item: unknown): item is ItemReference =>
  typeof item === "object" && item !== null && (item as { type?: unknown }).type === "item_reference";

/** `input` as items: a string is one user message. */
export function inputItems(input: unknown): unknown[] {
  if (input === undefined) return [];
  return typeof input === "string" ? [{ role: "user", content: input }] : (input as unknown[]);
}

/** Whether a stored item can be sent back as input (a passthrough answer's item may be of a kind the gateway cannot read). */
export const isInputItem = (item: unknown): boolean => Value.Check(InputItem, item);

/** A response whose items can be continued from: completed or incomplete, with its output. */
export type KeepableResponse = { id: string; status: string; output: Array<Record<string, unknown>> };

export function isKeepable(response: unknown): response is KeepableResponse {
  if (typeof response !== "object" || response === null) return false;
  const { id, status, output } = response as Record<string, unknown>;
  // a failed answer's items are partial: nothing to continue from
  return typeof id === "string" && (status === "completed" || status === "incomplete") && Array.isArray(output);
}

const TERMINAL = new Set(["response.completed", "response.incomplete"]);

/** The response object of the terminal `response.completed` / `response.incomplete` event in SSE text, if there is one. */
export function terminalResponseOf(sse: string): unknown {
  for (const block of sse.split("\n\n").reverse()) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (!data.includes('"response.')) continue;
    try {
      const event = JSON.parse(data) as { type?: unknown; response?: unknown };
      if (typeof event.type === "string" && TERMINAL.has(event.type)) return event.response;
    } catch {
      // not JSON (a [DONE] sentinel, a comment): not the event we look for
    }
  }
  return undefined;
}
