export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Copy without the undefined and null entries (translated fields that had nothing to carry). */
export function present(fields: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}
