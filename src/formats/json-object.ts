/** A JSON object as an upstream sent it: untrusted, every field checked before use. */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** An upstream event's data as a JSON object, or undefined when it is none (`[DONE]`, a malformed line). */
export function eventObject(data: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
