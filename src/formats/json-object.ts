import type { SseEvent } from "../ir/codec";

/** A JSON object as an upstream sent it: untrusted, every field checked before use. */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** An event's data parsed, or undefined when it is not JSON (`[DONE]`, a malformed line). */
export function parseEventData(data: string): unknown {
  if (data === "[DONE]") return undefined;
  const first = data.charCodeAt(0);
  // JSON text starts with `{`, `[` or whitespace; another sentinel is not worth a thrown SyntaxError
  if (first !== 123 && first !== 91 && first !== 32 && first !== 9 && first !== 10 && first !== 13) return undefined;
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
