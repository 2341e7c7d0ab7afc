/**
 * A large generation log for query-plan and timing tests, written by SQL in the database itself
 * (a recursive CTE on SQLite, generate_series on PostgreSQL): 100,000 rows take a second, not
 * the minutes the store's commit would. The activity counters are summed from the same rows,
 * as the store's commit keeps them.
 *
 * Row i (1-based): created `SEED_SPACING_MS * i` before `now`; workspace ws-(i % 3); one of 51
 * keys key-k, each in one workspace (k % 3 = the row's i % 3); model m-(i % 8); provider
 * p-(i % 4); every 20th an error, every 50th (not an error) cancelled; cost 1000 + i % 7 nanos; one in 500
 * (i % 500 = 7) flagged by a guardrail content filter (guardrail_flags ["Email address"]).
 * The analytics counters are summed from the rows too (`analyticsSeed`), as the store's commit
 * adds each generation to them (src/store/analytics-row.ts; test/store/contract/analytics.ts).
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { LATENCY_BUCKET_BOUNDS_MS, LATENCY_COLUMNS } from "../../src/store/latency-buckets";

// a year of traffic: the overview's 30 days are a twelfth of the counters, as in a deployment that has run a while
export const SEED_SPACING_MS = 315_000;
export const SEED_WORKSPACES = ["ws-0", "ws-1", "ws-2"];
/** a flagged generation is rare, as in a deployment: the listing must not walk the others to find it */
const FLAGGED_SQL = `CASE WHEN i % 500 = 7 THEN '["Email address"]' ELSE NULL END`;

export function seedSqliteGenerations(sqlite: Database, n: number, now: number): void {
  sqlite.run(`
WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n})
INSERT INTO generations (id, key_hash, workspace_id, user_id, api_type, model, provider_name, endpoint_id, streamed, cancelled, finish_reason,
  tokens_prompt, tokens_completion, cost_nanos, latency_ms, attempts, guardrail_flags, created_at)
SELECT printf('gen-%08d', i), 'key-' || ((i % 50) / 3 * 3 + i % 3), 'ws-' || (i % 3), NULL, 'chat', 'm-' || (i % 8), 'p-' || (i % 4), 'p-' || (i % 4) || '/m-' || (i % 8),
  i % 2, CASE WHEN i % 50 = 0 AND i % 20 <> 0 THEN 1 ELSE 0 END, CASE WHEN i % 20 = 0 THEN 'error' ELSE 'stop' END,
  10, 20, 1000 + i % 7, 100 + i % 900, '[]', ${FLAGGED_SQL}, ${now} - i * ${SEED_SPACING_MS}
FROM seq`);
  sqlite.run(`
INSERT INTO activity_daily (day, workspace_id, key_hash, user_id, model, provider_name, endpoint_id, requests, prompt_tokens, completion_tokens, usage_nanos)
SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch'), workspace_id, key_hash, '', model, provider_name, endpoint_id, count(*), sum(tokens_prompt), sum(tokens_completion), sum(cost_nanos)
FROM generations GROUP BY 1, 2, 3, 5, 6, 7`);
  sqlite.run(analyticsSeed("(created_at - created_at % 3600000)", "cancelled = 1"));
  sqlite.run("ANALYZE");
}

export async function seedPostgresGenerations(sql: SQL, n: number, now: number): Promise<void> {
  await sql.unsafe(`
INSERT INTO generations (id, key_hash, workspace_id, user_id, api_type, model, provider_name, endpoint_id, streamed, cancelled, finish_reason,
  tokens_prompt, tokens_completion, cost_nanos, latency_ms, attempts, guardrail_flags, created_at)
SELECT 'gen-' || lpad(i::text, 8, '0'), 'key-' || ((i % 50) / 3 * 3 + i % 3), 'ws-' || (i % 3), NULL, 'chat', 'm-' || (i % 8), 'p-' || (i % 4), 'p-' || (i % 4) || '/m-' || (i % 8),
  i % 2 = 1, i % 50 = 0 AND i % 20 <> 0, CASE WHEN i % 20 = 0 THEN 'error' ELSE 'stop' END,
  10, 20, 1000 + i % 7, 100 + i % 900, '[]', ${FLAGGED_SQL}, ${now} - i::bigint * ${SEED_SPACING_MS}
FROM generate_series(1, ${n}) AS i`);
  await sql.unsafe(`
INSERT INTO activity_daily (day, workspace_id, key_hash, user_id, model, provider_name, endpoint_id, requests, prompt_tokens, completion_tokens, usage_nanos)
SELECT to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), workspace_id, key_hash, '', model, provider_name, endpoint_id, count(*), sum(tokens_prompt), sum(tokens_completion), sum(cost_nanos)
FROM generations GROUP BY 1, 2, 3, 5, 6, 7`);
  await sql.unsafe(analyticsSeed("(created_at - created_at % 3600000)", "cancelled"));
  await sql.unsafe("ANALYZE");
}

/** The hourly analytics counters of the seeded generations, in SQL both dialects read. */
function analyticsSeed(hour: string, cancelled: string): string {
  const buckets = LATENCY_COLUMNS.map((_, i) => {
    const lower = i === 0 ? -1 : LATENCY_BUCKET_BOUNDS_MS[i - 1]!;
    const upper = LATENCY_BUCKET_BOUNDS_MS[i];
    return `sum(CASE WHEN latency_ms > ${lower}${upper === undefined ? "" : ` AND latency_ms <= ${upper}`} THEN 1 ELSE 0 END)`;
  });
  return `
INSERT INTO analytics_hourly (hour, workspace_id, key_hash, user_id, model, provider_name, finish_reason, api_type, requests, errors, cancelled,
  prompt_tokens, completion_tokens, usage_nanos, latency_count, latency_sum_ms, ${LATENCY_COLUMNS.join(", ")})
SELECT ${hour}, workspace_id, key_hash, '', model, provider_name, finish_reason, api_type, count(*),
  sum(CASE WHEN finish_reason = 'error' AND NOT (${cancelled}) THEN 1 ELSE 0 END), sum(CASE WHEN ${cancelled} THEN 1 ELSE 0 END),
  sum(tokens_prompt), sum(tokens_completion), sum(cost_nanos), count(latency_ms), sum(latency_ms), ${buckets.join(", ")}
FROM generations GROUP BY 1, 2, 3, 5, 6, 7, 8`;
}
