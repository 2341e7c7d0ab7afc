import type { SseEvent } from "../ir/codec";

/** A JSON object as an upstream sent it: untrusted, every field checked before use. */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** An event's data parsed, or undefined when it is not JSON (`[DONE]`, a malformed line). */
export function parseEventData(data: string): unknown {
  // `[DONE]` and other sentinels are not worth a thrown SyntaxError each
  const first = data.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** An upstream event's data as a JSON object (parsed once, by the SSE reader), or undefined when it is none. */
export function eventObject(event: SseEvent): JsonObject | undefined {
  const value = event.json !== undefined ? event.json : parseEventData(event.data);
  return isJsonObject(value) ? value : undefined;
}
