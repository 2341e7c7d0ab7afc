import type { Destination, ObservedGeneration } from "../contract";
import { structuredInput, structuredOutput } from "./chat-messages";
import { generationMetadata, totalTokens } from "./generation-metadata";
import { planTrace, spanHexId, traceHexId } from "./trace-plan";

/** How a column's value is written; each SQL sink maps the kinds to its own types. */
export type ColumnKind = "text" | "integer" | "decimal" | "boolean" | "timestamp" | "json";

/**
 * The row one generation becomes in the SQL sinks (ClickHouse, Snowflake): one row per
 * generation, attempts as a JSON array, content as JSON text. OpenRouter does not publish its
 * table, so this is ours; `nullable: false` columns always have a value. Costs are USD;
 * `input` and `output` are null in privacy mode; `metadata` is JSON (custom `trace` keys and
 * the gateway's facts), queryable with JSONExtract / VARIANT paths.
 */
export const GENERATION_COLUMNS = [
  { name: "trace_id", kind: "text", nullable: false },
  { name: "span_id", kind: "text", nullable: false },
  { name: "generation_id", kind: "text", nullable: false },
  { name: "trace_name", kind: "text", nullable: false },
  { name: "generation_name", kind: "text", nullable: false },
  { name: "span_name", kind: "text", nullable: true },
  { name: "parent_span_id", kind: "text", nullable: true },
  { name: "operation", kind: "text", nullable: false },
  { name: "start_time", kind: "timestamp", nullable: false },
  { name: "end_time", kind: "timestamp", nullable: false },
  { name: "duration_ms", kind: "integer", nullable: false },
  { name: "ttft_ms", kind: "integer", nullable: true },
  { name: "requested_model", kind: "text", nullable: true },
  { name: "model", kind: "text", nullable: false },
  { name: "provider", kind: "text", nullable: true },
  { name: "provider_name", kind: "text", nullable: true },
  { name: "api_key_name", kind: "text", nullable: true },
  { name: "user_id", kind: "text", nullable: true },
  { name: "session_id", kind: "text", nullable: true },
  { name: "finish_reason", kind: "text", nullable: true },
  { name: "status", kind: "text", nullable: false },
  { name: "error", kind: "text", nullable: true },
  { name: "streamed", kind: "boolean", nullable: false },
  { name: "cancelled", kind: "boolean", nullable: false },
  { name: "is_byok", kind: "boolean", nullable: false },
  { name: "prompt_tokens", kind: "integer", nullable: true },
  { name: "completion_tokens", kind: "integer", nullable: true },
  { name: "total_tokens", kind: "integer", nullable: true },
  { name: "cached_tokens", kind: "integer", nullable: true },
  { name: "cache_write_tokens", kind: "integer", nullable: true },
  { name: "reasoning_tokens", kind: "integer", nullable: true },
  { name: "input_cost", kind: "decimal", nullable: false },
  { name: "output_cost", kind: "decimal", nullable: false },
  { name: "total_cost", kind: "decimal", nullable: false },
  { name: "attempts", kind: "json", nullable: false },
  { name: "input", kind: "json", nullable: true },
  { name: "output", kind: "json", nullable: true },
  { name: "metadata", kind: "json", nullable: false },
] as const satisfies readonly { name: string; kind: ColumnKind; nullable: boolean }[];

export type ColumnName = (typeof GENERATION_COLUMNS)[number]["name"];

/** Timestamps are epoch milliseconds and JSON columns are JSON text here; each sink formats them. */
export type GenerationRow = Record<ColumnName, string | number | boolean | null>;

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export function generationRow(g: ObservedGeneration, destination: Destination): GenerationRow {
  const plan = planTrace(g);
  return {
    trace_id: traceHexId(plan),
    span_id: spanHexId(plan.generation),
    generation_id: g.id,
    trace_name: plan.traceName,
    generation_name: plan.generationName,
    span_name: plan.top === plan.generation ? null : plan.top.name,
    parent_span_id: plan.callerParentSpanId,
    operation: g.operation,
    start_time: g.startedAt,
    end_time: g.endedAt,
    duration_ms: Math.max(0, Math.round(g.endedAt - g.startedAt)),
    ttft_ms: g.timeToFirstTokenMs === null ? null : Math.round(g.timeToFirstTokenMs),
    requested_model: g.requestedModel,
    model: g.model,
    provider: g.providerSlug,
    provider_name: g.providerName,
    api_key_name: g.keyName,
    user_id: g.externalUser,
    session_id: g.sessionId,
    finish_reason: g.finishReason,
    status: g.status,
    error: g.errorMessage,
    streamed: g.streamed,
    cancelled: g.cancelled,
    is_byok: g.isByok,
    prompt_tokens: g.tokens.prompt,
    completion_tokens: g.tokens.completion,
    total_tokens: totalTokens(g),
    cached_tokens: g.tokens.cached,
    cache_write_tokens: g.tokens.cacheWrite,
    reasoning_tokens: g.tokens.reasoning,
    input_cost: g.cost.input,
    output_cost: g.cost.output,
    total_cost: g.cost.total,
    attempts: JSON.stringify(
      g.attempts.map((a) => ({
        provider: a.provider,
        model: a.model,
        endpoint: a.endpoint,
        status: a.status,
        started_at: new Date(a.startedAt).toISOString(),
        latency_ms: a.latencyMs,
      })),
    ),
    input: g.input ? json(structuredInput(g.input)) : null,
    output: g.output ? json(structuredOutput(g.output)) : null,
    metadata: JSON.stringify(generationMetadata(g, destination, plan)),
  };
}
