import { type IntegerOptions, Type } from "@sinclair/typebox";
import { t } from "elysia";

/**
 * An integer in a JSON body: TypeBox's own, not Elysia's `t.Integer`, which also takes numeric
 * strings through a Transform. A body schema with any Transform makes Elysia decode the whole
 * body once more after validating it (39 µs a request for a 46-message conversation with tools,
 * against 0.85 µs for the check). JSON carries numbers, and OpenAI refuses "20" for max_tokens too.
 */
export const JsonInteger = (options?: IntegerOptions) => Type.Integer(options);

/** Request fields shared by the three inference formats (OpenRouter's ChatRequest, ResponsesRequest and MessagesRequest alike). */

const NullableNumberish = t.Union([t.Number(), t.String()]);

export const Metadata = t.Record(t.String({ pattern: "^[^\\[\\]]{1,64}$" }), t.String({ maxLength: 512 }), {
  maxProperties: 16,
  additionalProperties: false,
  description: "at most 16 pairs; keys 1-64 characters without [ ]; values at most 512 characters",
});

const Percentiles = t.Object({
  p50: t.Optional(t.Nullable(t.Number())),
  p75: t.Optional(t.Nullable(t.Number())),
  p90: t.Optional(t.Nullable(t.Number())),
  p99: t.Optional(t.Nullable(t.Number())),
});

export const SortBy = t.Union([t.Literal("price"), t.Literal("throughput"), t.Literal("latency"), t.Literal("exacto")]);

export const Quantization = t.Union(
  ["int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown"].map((q) => t.Literal(q)),
);

export const ProviderPreferences = t.Object({
  order: t.Optional(t.Nullable(t.Array(t.String()))),
  only: t.Optional(t.Nullable(t.Array(t.String()))),
  ignore: t.Optional(t.Nullable(t.Array(t.String()))),
  allow_fallbacks: t.Optional(t.Nullable(t.Boolean())),
  require_parameters: t.Optional(t.Nullable(t.Boolean())),
  data_collection: t.Optional(t.Nullable(t.Union([t.Literal("allow"), t.Literal("deny")]))),
  zdr: t.Optional(t.Nullable(t.Boolean())),
  enforce_distillable_text: t.Optional(t.Nullable(t.Boolean())),
  quantizations: t.Optional(t.Nullable(t.Array(Quantization))),
  sort: t.Optional(
    t.Nullable(
      t.Union([
        SortBy,
        t.Object({
          by: t.Optional(t.Nullable(SortBy)),
          partition: t.Optional(t.Nullable(t.Union([t.Literal("model"), t.Literal("none")]))),
        }),
      ]),
    ),
  ),
  max_price: t.Optional(
    t.Nullable(
      t.Object({
        prompt: t.Optional(NullableNumberish),
        completion: t.Optional(NullableNumberish),
        image: t.Optional(NullableNumberish),
        audio: t.Optional(NullableNumberish),
        request: t.Optional(NullableNumberish),
      }),
    ),
  ),
  preferred_max_latency: t.Optional(t.Nullable(t.Union([t.Number(), Percentiles]))),
  preferred_min_throughput: t.Optional(t.Nullable(t.Union([t.Number(), Percentiles]))),
});

export const Trace = t.Object(
  {
    trace_id: t.Optional(t.String()),
    trace_name: t.Optional(t.String()),
    span_name: t.Optional(t.String()),
    generation_name: t.Optional(t.String()),
    parent_span_id: t.Optional(t.String()),
  },
  { additionalProperties: true },
);

export const Plugin = t.Object({ id: t.String(), enabled: t.Optional(t.Boolean()) }, { additionalProperties: true });

export const CacheControlSchema = t.Object({
  type: t.Literal("ephemeral"),
  ttl: t.Optional(t.Union([t.Literal("5m"), t.Literal("1h")])),
});

export const SessionId = t.String({ maxLength: 256 });
export const User = t.String({ maxLength: 256 });

export const ReasoningEffortSchema = t.Union(["max", "xhigh", "high", "medium", "low", "minimal", "none"].map((e) => t.Literal(e)));

export const ServiceTier = t.Union(["auto", "default", "fast", "flex", "priority", "scale"].map((e) => t.Literal(e)));

/** Fields every inference body may carry regardless of format. Spread into each format's t.Object. */
export const gatewayRequestFields = {
  models: t.Optional(t.Array(t.String())),
  provider: t.Optional(t.Nullable(ProviderPreferences)),
  plugins: t.Optional(t.Array(Plugin)),
  user: t.Optional(User),
  session_id: t.Optional(SessionId),
  trace: t.Optional(Trace),
  preset: t.Optional(t.String()),
  stop_server_tools_when: t.Optional(t.Array(t.Unknown())),
  debug: t.Optional(t.Object({ echo_upstream_body: t.Optional(t.Boolean()) })),
};
