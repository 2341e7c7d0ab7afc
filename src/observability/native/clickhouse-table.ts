import { type ColumnKind, GENERATION_COLUMNS, type GenerationRow } from "./generation-row";

/** A ClickHouse identifier in backquotes: a database or table name from the config never becomes SQL. */
export const clickhouseIdentifier = (name: string) => `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``;

const CLICKHOUSE_TYPES: Record<ColumnKind, string> = {
  text: "String",
  integer: "UInt64",
  decimal: "Float64",
  boolean: "Bool",
  timestamp: "DateTime64(3, 'UTC')",
  json: "String",
};

/**
 * The table the ClickHouse destination writes, for the docs and the connection test's advice:
 *
 *   CREATE TABLE IF NOT EXISTS `db`.`OPENROUTER_TRACES` (
 *     trace_id String, span_id String, generation_id String, trace_name String, generation_name String,
 *     span_name Nullable(String), parent_span_id Nullable(String), operation String,
 *     start_time DateTime64(3, 'UTC'), end_time DateTime64(3, 'UTC'), duration_ms UInt64, ttft_ms Nullable(UInt64),
 *     requested_model Nullable(String), model String, provider Nullable(String), provider_name Nullable(String),
 *     api_key_name Nullable(String), user_id Nullable(String), session_id Nullable(String), finish_reason Nullable(String),
 *     status String, error Nullable(String), streamed Bool, cancelled Bool, is_byok Bool,
 *     prompt_tokens … reasoning_tokens Nullable(UInt64), input_cost Float64, output_cost Float64, total_cost Float64,
 *     attempts String, input Nullable(String), output Nullable(String), metadata String
 *   ) ENGINE = MergeTree ORDER BY (start_time, trace_id)
 */
export function clickhouseCreateTable(database: string, table: string): string {
  const columns = GENERATION_COLUMNS.map((c) => `  ${c.name} ${c.nullable ? `Nullable(${CLICKHOUSE_TYPES[c.kind]})` : CLICKHOUSE_TYPES[c.kind]}`);
  return `CREATE TABLE IF NOT EXISTS ${clickhouseIdentifier(database)}.${clickhouseIdentifier(table)} (\n${columns.join(",\n")}\n) ENGINE = MergeTree ORDER BY (start_time, trace_id)`;
}

/** `2026-11-22 12:00:00.123`: what a DateTime64(3) column reads without best-effort parsing. */
const clickhouseTime = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

/** One JSONEachRow line: timestamps as ClickHouse text, JSON columns as their JSON text. */
export function clickhouseJsonLine(row: GenerationRow): string {
  const out: Record<string, unknown> = {};
  for (const column of GENERATION_COLUMNS) {
    const value = row[column.name];
    out[column.name] = column.kind === "timestamp" && typeof value === "number" ? clickhouseTime(value) : value;
  }
  return JSON.stringify(out);
}
