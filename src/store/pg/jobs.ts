import { type SQL, sql } from "drizzle-orm";
import { byRunAt, failureOutcome, firstState, JOB_COLUMNS, type JobRow, jobFromRow, payloadText, statsFromRows } from "../job-rows";
import type { JobFilter, JobOutcome, JobRecord, JobStore } from "../job-store";
import type { Conn } from "./client";

const COLUMNS = sql.raw(JOB_COLUMNS);

/** `kind` is one of `kinds`, passed as one JSON array parameter. */
const kindIn = (kinds: readonly string[]) => sql`kind in (select jsonb_array_elements_text(${JSON.stringify(kinds)}::text::jsonb))`;
const idIn = (ids: readonly string[]) => sql`id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::text::jsonb))`;

function filterOf(filter: JobFilter): SQL {
  const parts = [sql`true`];
  if (filter.state !== undefined) parts.push(sql`state = ${filter.state}`);
  if (filter.kind !== undefined) parts.push(sql`kind = ${filter.kind}`);
  return sql.join(parts, sql` and `);
}

/** `insert` (returning the job's columns) and, when it stored the job, one `outcome` counted: one statement. */
const countingInsert = (insert: SQL, outcome: JobOutcome): SQL => sql`
  with inserted as (${insert}),
  counted as (
    insert into job_outcomes (kind, outcome, count) select kind, ${outcome}, 1 from inserted
    on conflict (kind, outcome) do update set count = job_outcomes.count + 1
  )
  select * from inserted`;

/**
 * Jobs on PostgreSQL, shared by every instance. Leasing is one statement whose inner select
 * locks the rows it picks with FOR UPDATE SKIP LOCKED: instances leasing at once take different
 * jobs without waiting for each other. An attempt's end and its outcome count are one statement.
 */
export function pgJobStore({ db }: Conn): JobStore {
  const rows = (query: SQL) => db.execute<JobRow>(query).then((r) => [...r].map((row) => jobFromRow(row as JobRow)));

  const end = async (id: string, owner: string, set: SQL, outcome: JobOutcome): Promise<boolean> => {
    const ended = await db.execute<{ kind: string }>(sql`
      with ended as (
        update jobs set ${set}, lease_owner = null, lease_expires_at = null
        where id = ${id} and state = 'running' and lease_owner = ${owner} returning kind
      ),
      counted as (
        insert into job_outcomes (kind, outcome, count) select kind, ${outcome}, 1 from ended
        on conflict (kind, outcome) do update set count = job_outcomes.count + 1
      )
      select kind from ended`);
    return ended.length > 0;
  };

  const store: JobStore = {
    async enqueueMany(jobs) {
      const stored: JobRecord[] = [];
      for (const job of jobs) stored.push(await store.enqueue(job));
      return stored;
    },
    async enqueue(job) {
      const { outcome, ...first } = firstState(job);
      const insert = sql`
        insert into jobs (id, kind, key, payload, state, run_at, attempts, last_error, created_at, updated_at)
        values (${job.id}, ${job.kind}, ${job.key ?? null}, ${payloadText(job.payload)}, ${first.state}, ${first.runAt}::bigint, ${first.attempts},
          ${first.lastError}, ${job.now}::bigint, ${job.now}::bigint)
        on conflict do nothing returning ${COLUMNS}`;
      const [inserted] = await rows(outcome ? countingInsert(insert, outcome) : insert);
      if (inserted) return inserted;
      const [stored] = await rows(job.key ? sql`select ${COLUMNS} from jobs where key = ${job.key}` : sql`select ${COLUMNS} from jobs where id = ${job.id}`);
      if (!stored) throw new Error(`job ${job.id} was neither stored nor found`);
      return stored;
    },
    async lease(req) {
      const now = sql`${req.now}::bigint`;
      return byRunAt(
        await rows(sql`
          with pending as (
            select id, run_at from jobs where state = 'pending' and run_at <= ${now} and ${kindIn(req.kinds)}
            order by run_at, id limit ${req.limit} for update skip locked
          ), expired as (
            select id, run_at from jobs where state = 'running' and lease_expires_at < ${now} and ${kindIn(req.kinds)}
            order by run_at, id limit ${req.limit} for update skip locked
          )
          update jobs set state = 'running', lease_owner = ${req.owner}, lease_expires_at = ${req.now + req.leaseMs}::bigint, attempts = attempts + 1, updated_at = ${now}
          where id in (select id from (select * from pending union all select * from expired) due order by run_at, id limit ${req.limit})
          returning ${COLUMNS}`),
      );
    },
    async renew(owner, ids, expiresAt) {
      const renewed = await db.execute<{ id: string }>(sql`
        update jobs set lease_expires_at = ${expiresAt}::bigint where ${idIn(ids)} and state = 'running' and lease_owner = ${owner} returning id`);
      return [...renewed].map((r) => r.id);
    },
    complete: async (id, owner, now, nextRunAt) => (await store.completeMany(owner, [{ id, nextRunAt }], now)).length > 0,
    async completeMany(owner, completions, now) {
      if (completions.length === 0) return [];
      const input = JSON.stringify(
        completions.map((c) => ({ id: c.id, next_run_at: c.nextRunAt ?? null, drop_payload: c.nextRunAt === undefined && c.dropPayload === true })),
      );
      const ended = await db.execute<{ id: string }>(sql`
        with input as (select * from jsonb_to_recordset(${input}::text::jsonb) as c(id text, next_run_at bigint, drop_payload boolean)),
        ended as (
          update jobs set state = case when input.next_run_at is null then 'done' else 'pending' end,
            run_at = coalesce(input.next_run_at, jobs.run_at),
            attempts = case when input.next_run_at is null then jobs.attempts else 0 end,
            payload = case when input.drop_payload then 'null' else jobs.payload end,
            updated_at = ${now}::bigint, lease_owner = null, lease_expires_at = null
          from input where jobs.id = input.id and jobs.state = 'running' and jobs.lease_owner = ${owner}
          returning jobs.id, jobs.kind
        ),
        counted as (
          insert into job_outcomes (kind, outcome, count) select kind, 'succeeded', count(*) from ended group by kind
          on conflict (kind, outcome) do update set count = job_outcomes.count + excluded.count
        )
        select id from ended`);
      return [...ended].map((r) => r.id);
    },
    async countOutcomes(counts) {
      const counted = counts.filter((c) => c.count > 0);
      if (counted.length === 0) return;
      // summed first: one statement cannot upsert the same (kind, outcome) row twice
      await db.execute(sql`
        insert into job_outcomes (kind, outcome, count)
        select kind, outcome, sum(count) from jsonb_to_recordset(${JSON.stringify(counted)}::text::jsonb) as c(kind text, outcome text, count bigint) group by kind, outcome
        on conflict (kind, outcome) do update set count = job_outcomes.count + excluded.count`);
    },
    fail: (id, owner, f) =>
      end(
        id,
        owner,
        f.retryAt === null
          ? sql`state = 'dead', last_error = ${f.error}, updated_at = ${f.now}::bigint`
          : sql`state = 'pending', run_at = ${f.retryAt}::bigint, last_error = ${f.error}, updated_at = ${f.now}::bigint`,
        failureOutcome(f.retryAt),
      ),
    async release(owner, ids, now) {
      const released = await db.execute<{ id: string }>(sql`
        update jobs set state = 'pending', attempts = greatest(attempts - 1, 0), run_at = ${now}::bigint, lease_owner = null, lease_expires_at = null, updated_at = ${now}::bigint
        where ${idIn(ids)} and state = 'running' and lease_owner = ${owner} returning id`);
      return released.length;
    },
    get: async (id) => (await rows(sql`select ${COLUMNS} from jobs where id = ${id}`))[0],
    list: (filter, offset, limit) =>
      rows(sql`select ${COLUMNS} from jobs where ${filterOf(filter)} order by created_at desc, id desc limit ${limit} offset ${offset}`),
    async count(filter) {
      const [row] = await db.execute<{ n: string }>(sql`select count(*) as n from jobs where ${filterOf(filter)}`);
      return Number(row?.n ?? 0);
    },
    retry: async (id, now) =>
      (
        await rows(
          sql`update jobs set state = 'pending', attempts = 0, run_at = ${now}::bigint, updated_at = ${now}::bigint where id = ${id} and state = 'dead' returning ${COLUMNS}`,
        )
      )[0],
    async stats(now) {
      const [queues, outcomes, oldest] = await Promise.all([
        db.execute<{ kind: string; state: string; count: string }>(
          sql`select kind, state, count(*) as count from jobs group by kind, state order by kind, state`,
        ),
        db.execute<{ kind: string; outcome: string; count: string }>(sql`select kind, outcome, count from job_outcomes order by kind, outcome`),
        db.execute<{ kind: string; run_at: string }>(
          sql`select kind, min(run_at) as run_at from jobs where state = 'pending' and run_at <= ${now}::bigint group by kind order by kind`,
        ),
      ]);
      return statsFromRows({
        queues: [...queues] as Array<{ kind: string; state: string; count: string }>,
        outcomes: [...outcomes] as Array<{ kind: string; outcome: string; count: string }>,
        oldest: [...oldest] as Array<{ kind: string; run_at: string }>,
      });
    },
    async nextDue(kinds) {
      const [row] = await db.execute<{ at: string | null }>(sql`
        select least(
          (select min(run_at) from jobs where state = 'pending' and ${kindIn(kinds)}),
          (select min(lease_expires_at) from jobs where state = 'running' and ${kindIn(kinds)})) as at`);
      return row?.at == null ? null : Number(row.at);
    },
    async purgeDone(before) {
      const gone = await db.execute<{ id: string }>(sql`delete from jobs where state = 'done' and updated_at < ${before}::bigint returning id`);
      return gone.length;
    },
  };
  return store;
}
