import { type SQL, sql } from "drizzle-orm";

/**
 * Where a key's hash is written down, for a rotation that gives the key a new one (`keys.rotate`).
 * A table that names keys by hash belongs here; test/store/contract/key-rotation.ts fails when a
 * table has a `key_hash` column this list lacks.
 */

/** Columns holding one key hash: the key's own row, its usage and counters, and every record it made. */
export const KEY_HASH_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ["api_keys", "hash"],
  ["key_usage", "hash"],
  ["reservations", "key_hash"],
  ["generations", "key_hash"],
  ["generation_feedback", "key_hash"],
  ["generation_contents", "key_hash"],
  ["activity_daily", "key_hash"],
  ["analytics_hourly", "key_hash"],
  ["refusals_hourly", "key_hash"],
  ["refused_requests", "key_hash"],
  ["video_jobs", "key_hash"],
  ["guardrail_key_assignments", "key_hash"],
  ["api_key_previous_hashes", "key_hash"],
];

/** Columns holding a JSON array of key hashes (or null): a hash appears in it as the JSON string `"<hash>"`. */
export const KEY_HASH_LIST_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ["observability_destinations", "api_key_hashes"],
  ["byok_credentials", "allowed_api_key_hashes"],
];

/**
 * The statements of a rotation from `oldHash` to `newHash`, after the key's own row (the live key
 * only: nothing else moves when there is none): everything that names it. A hash is 64 hex digits,
 * so its quoted form cannot appear inside another value of a list.
 */
export function rotationStatements(oldHash: string, newHash: string): SQL[] {
  const [old, next] = [sql`cast(${oldHash} as text)`, sql`cast(${newHash} as text)`];
  const quoted = (hash: SQL) => sql`'"' || ${hash} || '"'`;
  return [
    ...KEY_HASH_COLUMNS.slice(1).map(([table, column]) => {
      const c = sql.identifier(column);
      return sql`update ${sql.identifier(table)} set ${c} = ${next} where ${c} = ${old}`;
    }),
    ...KEY_HASH_LIST_COLUMNS.map(([table, column]) => {
      const c = sql.identifier(column);
      return sql`update ${sql.identifier(table)} set ${c} = replace(${c}, ${quoted(old)}, ${quoted(next)}) where ${c} like '%' || ${old} || '%'`;
    }),
  ];
}
