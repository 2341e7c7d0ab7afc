import type { AnyValue, KeyValue } from "./wire";

/**
 * Attributes as the exporter builds them: plain values by name, encoded once at the end.
 * null and undefined mean "not known" and are left out (not the same as zero).
 */
export type Attributes = Record<string, unknown>;

/**
 * A USD figure or other measure that must stay a double on the wire even when it is whole
 * (a cost of 0): backends type an attribute by the first value they see.
 */
export class Double {
  constructor(readonly value: number) {}
}

export const double = (value: number | null | undefined): Double | undefined => (value === null || value === undefined ? undefined : new Double(value));

/**
 * One attribute value in OTLP JSON: whole numbers as `intValue` decimal strings, other numbers
 * (and `Double`s) as `doubleValue`, arrays element by element, objects as a JSON string (OTel
 * attributes hold no maps, and receivers read `gen_ai.*` message lists as JSON strings).
 */
export function encodeValue(value: unknown): AnyValue | undefined {
  switch (typeof value) {
    case "string":
      return { stringValue: value };
    case "boolean":
      return { boolValue: value };
    case "bigint":
      return { intValue: value.toString() };
    case "number":
      if (!Number.isFinite(value)) return undefined;
      return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
    case "object":
      if (value === null) return undefined;
      if (value instanceof Double) return Number.isFinite(value.value) ? { doubleValue: value.value } : undefined;
      if (Array.isArray(value)) return { arrayValue: { values: value.map(encodeValue).filter((v): v is AnyValue => v !== undefined) } };
      return { stringValue: JSON.stringify(value) };
    default:
      return undefined;
  }
}

/** Attributes in OTLP JSON, in the order they were set, unknown values left out. */
export function encodeAttributes(attributes: Attributes): KeyValue[] {
  const out: KeyValue[] = [];
  // for-in, not Object.entries: a span's attributes are dozens of keys, and the entries array was a fifth of the exporter's time
  for (const key in attributes) {
    const value = encodeValue(attributes[key]);
    if (value !== undefined) out.push({ key, value });
  }
  return out;
}
