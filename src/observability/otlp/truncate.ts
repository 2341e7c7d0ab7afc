import type { Attributes } from "./attribute-value";

/** OpenRouter's rule for the OTLP types: a value over 10,000,000 characters is shortened, not dropped. */
export const MAX_ATTRIBUTE_CHARS = 10_000_000;

export const TRUNCATED_MARK = "[truncated]";

/** What cutting a span's attributes to `cap` characters came to. */
export type Truncated = { attributes: Attributes; truncatedKeys: string[] };

/**
 * Every string attribute (JSON-encoded objects included) longer than `cap` characters is cut to
 * `cap`, ending in `[truncated]`, and flagged by a boolean `<key>.truncated` attribute; the caller
 * lists the keys in an `openrouter.trace_truncated` span event. Objects are measured as the JSON
 * string they are sent as, and come back as that string.
 */
export function truncateAttributes(attributes: Attributes, cap: number): Truncated {
  const out: Attributes = {};
  const truncatedKeys: string[] = [];
  for (const key in attributes) {
    const value = attributes[key];
    const text = typeof value === "string" ? value : isPlainObject(value) ? JSON.stringify(value) : undefined;
    if (text === undefined || text.length <= cap) {
      // an object goes on as the JSON text it was measured by, which is what it is sent as (encodeValue): not serialised twice
      out[key] = text ?? value;
      continue;
    }
    out[key] = text.slice(0, Math.max(0, cap - TRUNCATED_MARK.length)) + TRUNCATED_MARK;
    out[`${key}.truncated`] = true;
    truncatedKeys.push(key);
  }
  return { attributes: out, truncatedKeys };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
