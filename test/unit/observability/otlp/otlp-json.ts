/** Reading an OTLP JSON export back in tests: attributes as plain values, spans by name. */
import type { Span } from "../../../../src/observability/otlp/wire";
export type OtlpSpan = Span;

export function decodeValue(value: any): unknown {
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) return value.arrayValue.values.map(decodeValue);
  throw new Error(`unknown AnyValue ${JSON.stringify(value)}`);
}

export const attributesOf = (list: Array<{ key: string; value: any }>): Record<string, unknown> =>
  Object.fromEntries(list.map((kv) => [kv.key, decodeValue(kv.value)]));

export function spansOf(body: any): OtlpSpan[] {
  return body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans));
}

export const spanNamed = (body: any, name: string): OtlpSpan => {
  const span = spansOf(body).find((s) => s.name === name);
  if (!span)
    throw new Error(
      `no span '${name}' in ${spansOf(body)
        .map((s) => s.name)
        .join(", ")}`,
    );
  return span;
};
