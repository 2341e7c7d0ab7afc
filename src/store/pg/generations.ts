import { getTableColumns, sql } from "drizzle-orm";
import { ANALYTICS_KEY_COLUMNS, ANALYTICS_SUMS, analyticsFacts, analyticsValues } from "../analytics-row";
import { generationRecord, generationRow } from "../columns";
import { generationQueries } from "../queries/generations";
import type { GenerationCursor, GenerationFilter, GenerationStore, SettledGeneration } from "../store";
import type { Conn, Db } from "./client";
import { addSpendOnConflict, spendColumns } from "./key-usage";
import { order } from "./order";
import { generationFeedback, generations } from "./schema";

const q = generationQueries(generations, generationFeedback, order);

/** A listing's page query (exported so the query-plan test explains the very statement the store runs). */
export function generationListQuery(db: Db, filter: GenerationFilter, before: GenerationCursor | null, limit: number) {
  return db
    .select()
    .from(generations)
    .where(q.listed(filter, before))
    .orderBy(...q.listOrder)
    .limit(limit);
}

const windowsOf = (s: SettledGeneration) => (s.spend ? `${s.spend.windows.day}|${s.spend.windows.week}|${s.spend.windows.month}` : null);

/**
 * Splits a batch (ids already unique) into runs that one statement can apply: within a run every
 * key's (and every workspace's) spend has the same window keys, so it adds up. Several runs only
 * when a batch straddles midnight UTC; they are applied in order, so windows reset as they would
 * one record at a time.
 */
function runs(batch: SettledGeneration[]): SettledGeneration[][] {
  const out: SettledGeneration[][] = [];
  let run: SettledGeneration[] = [];
  let windows = new Map<string, string>();
  for (const s of batch) {
    const w = windowsOf(s);
    const owners = [
      s.record.keyHash,
      `workspace:${s.record.workspaceId}`,
      ...(s.record.userId === null ? [] : [`member:${s.record.workspaceId}:${s.record.userId}`]),
    ];
    if (w !== null && owners.some((o) => windows.has(o) && windows.get(o) !== w)) {
      out.push(run);
      run = [];
      windows = new Map();
    }
    if (w !== null) for (const o of owners) windows.set(o, w);
    run.push(s);
  }
  out.push(run);
  return out;
}

/** generations' columns: JS key and SQL name, in table order */
const COLUMNS = Object.entries(getTableColumns(generations)).map(([key, column]) => ({ key, name: column.name }));
const COLUMN_LIST = COLUMNS.map((c) => `"${c.name}"`).join(", ");

/**
 * PostgreSQL text holds neither NUL nor (through JSON) a lone surrogate. A text parameter would
 * turn a lone surrogate into U+FFFD and refuse NUL; here both become U+FFFD, so that a client
 * cannot keep its generation (and its spend) out of the database with such a `user` string.
 */
const storable = (v: unknown) => (typeof v === "string" ? v.toWellFormed().replaceAll("\u0000", "\uFFFD") : (v ?? null));

/** One JSON object per record: the generation's columns plus what settling it changes. */
function toJson(s: SettledGeneration): Record<string, unknown> {
  const row: Record<string, unknown> = generationRow(s.record);
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS) out[c.name] = storable(row[c.key]);
  const spend = s.spend;
  out.reservation_id = s.reservationId;
  out.paid = spend ? (spend.byok ? 0 : spend.nanos) : null;
  out.byok = spend ? (spend.byok ? spend.nanos : 0) : null;
  out.activity_day = s.day;
  out.day_key = spend?.windows.day ?? null;
  out.week_key = spend?.windows.week ?? null;
  out.month_key = spend?.windows.month ?? null;
  // the outbox (the generation to forward, the kept content), stored only with a new record
  // stored as text: the bytes' base64
  const sealed = s.observation?.sealed;
  out.observation_sealed =
    sealed === undefined ? null : typeof sealed === "string" ? sealed : Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength).toString("base64");
  out.observation_created_at = s.observation?.createdAt ?? null;
  out.content_sealed = s.content?.sealed ?? null;
  out.content_created_at = s.content?.createdAt ?? null;
  // the answer for the response cache, stored only with a new record
  const entry = s.cacheEntry;
  out.cache_key = entry?.key ?? null;
  out.cache_workspace_id = entry?.workspaceId ?? null;
  out.cache_created_at = entry?.createdAt ?? null;
  out.cache_answer = entry ? storable(entry.answer) : null;
  out.cache_bytes = entry?.bytes ?? null;
  out.cache_expires_at = entry?.expiresAt ?? null;
  // its hour's analytics counters: the row's key columns and amounts, each prefixed a_
  analyticsValues(analyticsFacts(s.record)).forEach((value, i) => {
    out[`a_${ANALYTICS_COLUMNS[i]}`] = typeof value === "string" ? storable(value) : value;
  });
  return out;
}

const ANALYTICS_COLUMNS: readonly string[] = [...ANALYTICS_KEY_COLUMNS, ...ANALYTICS_SUMS.map(([name]) => name)];
const ANALYTICS_SUM_COLUMNS = ANALYTICS_SUMS.map(([name]) => name);

/** The analytics counters of the inserted records, summed per row they land in (a statement may change a row once). */
const HOURLY = `hourly as (
    insert into analytics_hourly as h (${ANALYTICS_COLUMNS.join(", ")})
    select ${ANALYTICS_KEY_COLUMNS.map((c) => `a_${c}`).join(", ")}, ${ANALYTICS_SUM_COLUMNS.map((c) => `sum(a_${c})`).join(", ")}
    from json_to_recordset((select doc from batch)) as x(id text, a_hour bigint, ${ANALYTICS_KEY_COLUMNS.slice(1)
      .map((c) => `a_${c} text`)
      .join(", ")}, ${ANALYTICS_SUM_COLUMNS.map((c) => `a_${c} bigint`).join(", ")})
    where x.id in (select id from ins)
    group by ${ANALYTICS_KEY_COLUMNS.map((_, i) => i + 1).join(", ")}
    on conflict (${ANALYTICS_KEY_COLUMNS.join(", ")}) do update set ${ANALYTICS_SUM_COLUMNS.map((c) => `${c} = h.${c} + excluded.${c}`).join(", ")}
  )`;

/**
 * One statement, so one round trip and atomic without a transaction: inserts the records,
 * skipping ids already stored, deletes the reservations of the whole batch (a retried record's
 * reservation is not left held), and for the inserted ones only adds their spend to key_usage
 * and workspace_usage and their counts to activity_daily, taking the released amounts off `held`
 * in the same upserts. A statement may change a row once, so a key (workspace) with spend gets
 * both in its upsert and one without spend gets the release in an update of its own. The
 * outbox of each new record (its jobs and kept content) and its response cache entry are inserted by the same statement. The
 * workspace rows are written only once every key row is (the `after_keys` gate reads both key
 * statements to their end first), and the member rows (member_usage, the spend of the keys a user
 * created in a workspace, for guardrail budgets) once every workspace row is: reservations lock
 * the key row, then the workspace row, then the member row, and the same order here keeps them
 * from deadlocking. The batch travels as one JSON parameter:
 * the statement's text is the same for every batch size, and building it costs nothing
 * (drizzle's insert builder took ~2 ms for 50 records).
 */
const COMMIT = `
  with batch as (select $1::text::json as doc),
  ins as (
    insert into generations (${COLUMN_LIST})
    select ${COLUMN_LIST} from json_populate_recordset(null::generations, (select doc from batch))
    on conflict (id) do nothing returning id
  ),
  settled as (
    select * from json_to_recordset((select doc from batch))
      as x(id text, key_hash text, workspace_id text, user_id text, model text, provider_name text, endpoint_id text,
        tokens_prompt bigint, tokens_completion bigint, tokens_reasoning bigint, cost_nanos bigint, is_byok boolean, activity_day text,
        reservation_id text, paid bigint, byok bigint, day_key text, week_key text, month_key text)
  ),
  kept as (select settled.* from settled join ins on ins.id = settled.id),
  queued as (
    insert into observation_outbox (generation_id, workspace_id, sealed, created_at)
    select o.id, o.workspace_id, o.observation_sealed, o.observation_created_at
    from json_to_recordset((select doc from batch)) as o(id text, workspace_id text, observation_sealed text, observation_created_at bigint)
    where o.observation_sealed is not null and o.id in (select id from ins)
  ),
  kept_content as (
    insert into generation_contents (generation_id, workspace_id, key_hash, sealed, created_at)
    select c.id, c.workspace_id, c.key_hash, c.content_sealed, c.content_created_at
    from json_to_recordset((select doc from batch)) as c(id text, workspace_id text, key_hash text, content_sealed text, content_created_at bigint)
    where c.content_sealed is not null and c.id in (select id from ins)
    on conflict do nothing
  ),
  cached as (
    insert into response_cache (key, workspace_id, generation_id, answer, bytes, created_at, expires_at)
    select distinct on (e.cache_key) e.cache_key, e.cache_workspace_id, e.id, e.cache_answer, e.cache_bytes, e.cache_created_at, e.cache_expires_at
    from json_to_recordset((select doc from batch))
      as e(id text, cache_key text, cache_workspace_id text, cache_answer text, cache_bytes integer, cache_created_at bigint, cache_expires_at bigint)
    where e.cache_key is not null and e.id in (select id from ins)
    -- one row per key (an upsert may not change a row twice): the batch's latest answer
    order by e.cache_key, e.cache_created_at desc
    on conflict (key) do update set workspace_id = excluded.workspace_id, generation_id = excluded.generation_id, answer = excluded.answer,
      bytes = excluded.bytes, created_at = excluded.created_at, expires_at = excluded.expires_at
  ),
  gone as (
    delete from reservations r using settled where r.id = settled.reservation_id
    returning r.key_hash, r.amount_nanos, r.workspace_id, r.workspace_amount_nanos, r.member_user_id, r.member_amount_nanos
  ),
  freed as (select key_hash, sum(amount_nanos)::bigint as amount from gone group by key_hash),
  spent as (
    select key_hash, min(day_key) as day_key, min(week_key) as week_key, min(month_key) as month_key, sum(paid)::bigint as paid, sum(byok)::bigint as byok
    from kept where paid is not null group by key_hash
  ),
  charged as (
    insert into key_usage as u (${spendColumns("hash")})
    select key_hash, day_key, week_key, month_key, paid, paid, paid, paid, byok, byok, byok, byok from spent
    ${addSpendOnConflict("hash")},
      held = u.held - coalesce((select amount from freed where freed.key_hash = u.hash), 0)
    returning 1
  ),
  unheld as (
    update key_usage u set held = u.held - freed.amount from freed
    where u.hash = freed.key_hash and not exists (select 1 from spent where spent.key_hash = freed.key_hash)
    returning 1
  ),
  after_keys as (select (select count(*) from charged) + (select count(*) from unheld) as n),
  wfreed as (select workspace_id, sum(workspace_amount_nanos)::bigint as amount from gone where workspace_id is not null group by workspace_id),
  wspent as (
    select workspace_id, min(day_key) as day_key, min(week_key) as week_key, min(month_key) as month_key, sum(paid)::bigint as paid, sum(byok)::bigint as byok
    from kept where paid is not null group by workspace_id
  ),
  wcharged as (
    insert into workspace_usage as u (${spendColumns("workspace_id")})
    select workspace_id, day_key, week_key, month_key, paid, paid, paid, paid, byok, byok, byok, byok from wspent where (select n from after_keys) >= 0
    ${addSpendOnConflict("workspace_id")},
      held = u.held - coalesce((select amount from wfreed where wfreed.workspace_id = u.workspace_id), 0)
    returning 1
  ),
  wunheld as (
    update workspace_usage u set held = u.held - wfreed.amount from wfreed
    where u.workspace_id = wfreed.workspace_id and not exists (select 1 from wspent where wspent.workspace_id = wfreed.workspace_id)
      and (select n from after_keys) >= 0
    returning 1
  ),
  after_workspaces as (select (select count(*) from wcharged) + (select count(*) from wunheld) as n),
  mfreed as (
    select workspace_id, member_user_id as user_id, sum(member_amount_nanos)::bigint as amount
    from gone where member_user_id is not null group by workspace_id, member_user_id
  ),
  mspent as (
    select workspace_id, user_id, min(day_key) as day_key, min(week_key) as week_key, min(month_key) as month_key, sum(paid)::bigint as paid, sum(byok)::bigint as byok
    from kept where paid is not null and user_id is not null group by workspace_id, user_id
  ),
  mcharged as (
    insert into member_usage as u (${spendColumns("workspace_id, user_id")})
    select workspace_id, user_id, day_key, week_key, month_key, paid, paid, paid, paid, byok, byok, byok, byok from mspent where (select n from after_workspaces) >= 0
    ${addSpendOnConflict("workspace_id, user_id")},
      held = u.held - coalesce((select amount from mfreed where mfreed.workspace_id = u.workspace_id and mfreed.user_id = u.user_id), 0)
  ),
  counted as (
    insert into activity_daily as a (day, workspace_id, key_hash, user_id, model, provider_name, endpoint_id,
      requests, prompt_tokens, completion_tokens, reasoning_tokens, usage_nanos, byok_usage_nanos)
    select activity_day, workspace_id, key_hash, coalesce(user_id, ''), model, coalesce(provider_name, ''), endpoint_id, count(*),
      sum(coalesce(tokens_prompt, 0)), sum(coalesce(tokens_completion, 0)), sum(coalesce(tokens_reasoning, 0)),
      sum(case when is_byok then 0 else cost_nanos end), sum(case when is_byok then cost_nanos else 0 end)
    from kept where endpoint_id is not null group by 1, 2, 3, 4, 5, 6, 7
    on conflict (day, workspace_id, key_hash, user_id, model, provider_name, endpoint_id) do update set
      requests = a.requests + excluded.requests, prompt_tokens = a.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = a.completion_tokens + excluded.completion_tokens, reasoning_tokens = a.reasoning_tokens + excluded.reasoning_tokens,
      usage_nanos = a.usage_nanos + excluded.usage_nanos, byok_usage_nanos = a.byok_usage_nanos + excluded.byok_usage_nanos
  ),
  ${HOURLY}
  update member_usage u set held = u.held - mfreed.amount from mfreed
  where u.workspace_id = mfreed.workspace_id and u.user_id = mfreed.user_id
    and not exists (select 1 from mspent where mspent.workspace_id = mfreed.workspace_id and mspent.user_id = mfreed.user_id)
    and (select n from after_workspaces) >= 0`;

const [COMMIT_HEAD, COMMIT_TAIL] = COMMIT.split("$1") as [string, string];

const commitRun = (db: Db, run: SettledGeneration[]) => db.execute(sql`${sql.raw(COMMIT_HEAD)}${JSON.stringify(run.map(toJson))}${sql.raw(COMMIT_TAIL)}`);

export function pgGenerationStore(conn: Conn): GenerationStore {
  const { db } = conn;
  return {
    async commit(batch) {
      // an id twice in one batch: the second is a retry of the first, skipped like a stored one
      const seen = new Set<string>();
      const unique = batch.filter((s) => !seen.has(s.record.id) && seen.add(s.record.id));
      if (unique.length === 0) return;
      const parts = runs(unique);
      if (parts.length === 1) {
        await commitRun(db, parts[0]!);
        return;
      }
      // a nested call runs in a savepoint of the caller's transaction
      await db.transaction(async (tx) => {
        for (const part of parts) await commitRun(tx, part);
      });
    },
    async get(id) {
      const [row] = await db.select().from(generations).where(q.byId(id));
      return row ? generationRecord(row) : undefined;
    },
    async since(since, limit) {
      const rows = await db
        .select()
        .from(generations)
        .where(q.since(since))
        .orderBy(...q.sinceOrder)
        .limit(limit);
      return rows.map(generationRecord);
    },
    async list(filter, before, limit) {
      const rows = await generationListQuery(db, filter, before, limit);
      return rows.map(generationRecord);
    },
    async addFeedback(feedback) {
      await db.insert(generationFeedback).values({ ...feedback, comment: feedback.comment === null ? null : (storable(feedback.comment) as string) });
    },
    async feedback(generationId) {
      return db
        .select()
        .from(generationFeedback)
        .where(q.feedbackOf(generationId))
        .orderBy(...q.feedbackOrder);
    },
  };
}
