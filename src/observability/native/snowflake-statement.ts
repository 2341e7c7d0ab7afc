import { type ColumnKind, GENERATION_COLUMNS, type GenerationRow } from "./generation-row";

/** A Snowflake binding: every value travels as a string (or null) with the type Snowflake should read it as. */
export type SnowflakeBinding = { type: "TEXT" | "FIXED" | "REAL" | "BOOLEAN"; value: string | null };

/** An unquoted Snowflake identifier (database, schema, table, warehouse): anything else is refused at save time. */
export const SNOWFLAKE_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;

const SNOWFLAKE_TYPES: Record<ColumnKind, string> = {
  text: "VARCHAR",
  integer: "NUMBER(38,0)",
  decimal: "FLOAT",
  boolean: "BOOLEAN",
  timestamp: "TIMESTAMP_TZ",
  json: "VARIANT",
};

/**
 * The table the Snowflake destination writes (the same columns as ClickHouse's):
 *
 *   CREATE TABLE IF NOT EXISTS DB.SCHEMA.OPENROUTER_TRACES (
 *     trace_id VARCHAR NOT NULL, span_id VARCHAR NOT NULL, generation_id VARCHAR NOT NULL, …,
 *     start_time TIMESTAMP_TZ NOT NULL, end_time TIMESTAMP_TZ NOT NULL, duration_ms NUMBER(38,0) NOT NULL, …,
 *     input_cost FLOAT NOT NULL, …, attempts VARIANT NOT NULL, input VARIANT, output VARIANT, metadata VARIANT NOT NULL
 *   )
 */
export function snowflakeCreateTable(qualifiedTable: string): string {
  const columns = GENERATION_COLUMNS.map((c) => `  ${c.name} ${SNOWFLAKE_TYPES[c.kind]}${c.nullable ? "" : " NOT NULL"}`);
  return `CREATE TABLE IF NOT EXISTS ${qualifiedTable} (\n${columns.join(",\n")}\n)`;
}

// VARIANT values cannot be bound in VALUES, so the row is an INSERT … SELECT whose JSON columns go through PARSE_JSON
const placeholder = (kind: ColumnKind) => (kind === "json" ? "PARSE_JSON(?)" : kind === "timestamp" ? "TO_TIMESTAMP_TZ(?)" : "?");

function binding(kind: ColumnKind, value: string | number | boolean | null): SnowflakeBinding {
  if (value === null) return { type: kind === "integer" ? "FIXED" : kind === "decimal" ? "REAL" : kind === "boolean" ? "BOOLEAN" : "TEXT", value: null };
  switch (kind) {
    case "integer":
      return { type: "FIXED", value: String(Math.round(Number(value))) };
    case "decimal":
      return { type: "REAL", value: String(value) };
    case "boolean":
      return { type: "BOOLEAN", value: value ? "true" : "false" };
    case "timestamp":
      return { type: "TEXT", value: new Date(Number(value)).toISOString() };
    default:
      return { type: "TEXT", value: String(value) };
  }
}

/** The INSERT of one generation row: the statement and its bindings, numbered from "1". */
export function snowflakeInsert(qualifiedTable: string, row: GenerationRow): { statement: string; bindings: Record<string, SnowflakeBinding> } {
  const names = GENERATION_COLUMNS.map((c) => c.name).join(", ");
  const values = GENERATION_COLUMNS.map((c) => placeholder(c.kind)).join(", ");
  const bindings = Object.fromEntries(GENERATION_COLUMNS.map((c, i) => [String(i + 1), binding(c.kind, row[c.name])]));
  return { statement: `INSERT INTO ${qualifiedTable} (${names}) SELECT ${values}`, bindings };
}
