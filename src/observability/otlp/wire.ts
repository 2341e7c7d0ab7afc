/**
 * The OTLP/HTTP JSON shapes of a trace export (opentelemetry-proto, ExportTraceServiceRequest):
 * lowerCamelCase keys, hex ids (32 / 16 characters), enums as integers, 64-bit integers
 * (`intValue`, `*UnixNano`) as decimal strings.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };

export type KeyValue = { key: string; value: AnyValue };

export type SpanEvent = { timeUnixNano: string; name: string; attributes: KeyValue[] };

export type Span = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  events: SpanEvent[];
  status: { code: number; message?: string };
};

export type ExportTraceServiceRequest = {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ scope: { name: string; version?: string }; spans: Span[] }>;
  }>;
};

/** SpanKind of the proto enum. */
export const SPAN_KIND = { internal: 1, client: 3 } as const;

/** Status.StatusCode of the proto enum. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** Epoch milliseconds as the decimal nanoseconds string OTLP JSON wants. */
export const unixNano = (ms: number): string => (BigInt(Math.round(ms)) * 1_000_000n).toString();
