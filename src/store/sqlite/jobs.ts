import type { Database } from "bun:sqlite";
import { byRunAt, failureOutcome, firstState, JOB_COLUMNS, type JobRow, jobFromRow, payloadText, statsFromRows } from "../job-rows";
import type { Completion, JobOutcome, JobRecord, JobStore, NewJob } from "../job-store";
import type { SqliteWriter, WriteStep } from "./client";

/** `$kinds`: a JSON array of kind names, so one prepared statement serves any list. */
const KIND_IN = "kind IN (SELECT value FROM json_each($kinds))";

const FILTER = "($state IS NULL OR state = $state) AND ($kind IS NULL OR kind = $kind)";

/**
 * Jobs on SQLite. Every write is one statement (or two in `atomic`, with its outcome count), so a
 * worker thread's connection holds the database's write lock for microseconds: the HTTP thread's
 * group commit waits that long at most (busy_timeout covers it).
 */
export function sqliteJobStore(sqlite: Database, write: WriteStep, writer: SqliteWriter): JobStore {
  const insert = sqlite.query<JobRow, Record<string, string | number | null>>(
    `INSERT INTO jobs (id, kind, key, payload, state, run_at, attempts, last_error, created_at, updated_at)
     VALUES ($id, $kind, $key, $payload, $state, $runAt, $attempts, $lastError, $now, $now) ON CONFLICT DO NOTHING RETURNING ${JOB_COLUMNS}`,
  );
  const byKey = sqlite.query<JobRow, { key: string }>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE key = $key`);
  const byId = sqlite.query<JobRow, { id: string }>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $id`);
  // Each kind of due job is read in index order (jobs_due, jobs_lease) and cut at the limit before
  // the two are merged: one OR over both made SQLite read and sort every pending job, so a lease
  // cost grew with the backlog (1.1 ms with 500 pending against 16 µs this way).
  const lease = sqlite.query<JobRow, Record<string, string | number>>(
    `UPDATE jobs SET state = 'running', lease_owner = $owner, lease_expires_at = $expires, attempts = attempts + 1, updated_at = $now
     WHERE id IN (SELECT id FROM (
         SELECT * FROM (SELECT id, run_at FROM jobs WHERE state = 'pending' AND run_at <= $now AND ${KIND_IN} ORDER BY run_at, id LIMIT $limit)
         UNION ALL
         SELECT * FROM (SELECT id, run_at FROM jobs WHERE state = 'running' AND lease_expires_at < $now AND ${KIND_IN} ORDER BY run_at, id LIMIT $limit)
       ) ORDER BY run_at, id LIMIT $limit)
     RETURNING ${JOB_COLUMNS}`,
  );
  const renew = sqlite.query<{ id: string }, Record<string, string | number>>(
    `UPDATE jobs SET lease_expires_at = $expires WHERE id IN (SELECT value FROM json_each($ids)) AND state = 'running' AND lease_owner = $owner RETURNING id`,
  );
  const finish = sqlite.query<{ kind: string }, Record<string, string | number | null>>(
    `UPDATE jobs SET state = $state, run_at = coalesce($runAt, run_at), attempts = CASE WHEN $resetAttempts = 1 THEN 0 ELSE attempts END,
       payload = CASE WHEN $dropPayload = 1 THEN 'null' ELSE payload END,
       last_error = coalesce($error, last_error), lease_owner = NULL, lease_expires_at = NULL, updated_at = $now
     WHERE id = $id AND state = 'running' AND lease_owner = $owner RETURNING kind`,
  );
  const countOutcome = sqlite.query(
    `INSERT INTO job_outcomes (kind, outcome, count) VALUES ($kind, $outcome, $n) ON CONFLICT(kind, outcome) DO UPDATE SET count = count + $n`,
  );
  const release = sqlite.query<{ id: string }, Record<string, string | number>>(
    `UPDATE jobs SET state = 'pending', attempts = max(attempts - 1, 0), run_at = $now, lease_owner = NULL, lease_expires_at = NULL, updated_at = $now
     WHERE id IN (SELECT value FROM json_each($ids)) AND state = 'running' AND lease_owner = $owner RETURNING id`,
  );
  const list = sqlite.query<JobRow, Record<string, string | number | null>>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${FILTER} ORDER BY created_at DESC, id DESC LIMIT $limit OFFSET $offset`,
  );
  const count = sqlite.query<{ n: number }, Record<string, string | null>>(`SELECT count(*) AS n FROM jobs WHERE ${FILTER}`);
  const retry = sqlite.query<JobRow, Record<string, string | number>>(
    `UPDATE jobs SET state = 'pending', attempts = 0, run_at = $now, updated_at = $now WHERE id = $id AND state = 'dead' RETURNING ${JOB_COLUMNS}`,
  );
  const queues = sqlite.query<{ kind: string; state: string; count: number }, []>(
    "SELECT kind, state, count(*) AS count FROM jobs GROUP BY kind, state ORDER BY kind, state",
  );
  const outcomes = sqlite.query<{ kind: string; outcome: string; count: number }, []>("SELECT kind, outcome, count FROM job_outcomes ORDER BY kind, outcome");
  const oldest = sqlite.query<{ kind: string; run_at: number }, { now: number }>(
    "SELECT kind, min(run_at) AS run_at FROM jobs WHERE state = 'pending' AND run_at <= $now GROUP BY kind ORDER BY kind",
  );
  const nextDue = sqlite.query<{ at: number | null }, { kinds: string }>(
    `SELECT min(at) AS at FROM (
       SELECT min(run_at) AS at FROM jobs WHERE state = 'pending' AND kind IN (SELECT value FROM json_each($kinds))
       UNION ALL SELECT min(lease_expires_at) FROM jobs WHERE state = 'running' AND kind IN (SELECT value FROM json_each($kinds)))`,
  );
  const purgeDone = sqlite.query<{ id: string }, { before: number }>("DELETE FROM jobs WHERE state = 'done' AND updated_at < $before RETURNING id");

  /** two statements when it counts an outcome: `atomic` around it then */
  const enqueueNow = (job: NewJob): JobRecord => {
    const { outcome, ...first } = firstState(job);
    const row = insert.get({ id: job.id, kind: job.kind, key: job.key ?? null, payload: payloadText(job.payload), now: job.now, ...first });
    if (row && outcome) countOutcome.run({ kind: job.kind, outcome, n: 1 });
    const stored = row ?? (job.key ? byKey.get({ key: job.key }) : byId.get({ id: job.id }));
    if (!stored) throw new Error(`job ${job.id} was neither stored nor found`);
    return jobFromRow(stored);
  };

  /** the attempt's end and its outcome count, as one write */
  const end = (params: Record<string, string | number | null>, outcome: JobOutcome) =>
    write(() =>
      writer.atomic(() => {
        const row = finish.get(params);
        if (row) countOutcome.run({ kind: row.kind, outcome, n: 1 });
        return row !== null;
      }),
    );
  const succeeded = (completion: Completion, owner: string, now: number) => ({
    id: completion.id,
    owner,
    now,
    state: completion.nextRunAt === undefined ? "done" : "pending",
    runAt: completion.nextRunAt ?? null,
    resetAttempts: completion.nextRunAt === undefined ? 0 : 1,
    dropPayload: completion.nextRunAt === undefined && completion.dropPayload === true ? 1 : 0,
    error: null,
  });
  const completeMany = (owner: string, completions: readonly Completion[], now: number) =>
    write(() =>
      writer.atomic(() => {
        const held: string[] = [];
        const byKind = new Map<string, number>();
        for (const completion of completions) {
          const row = finish.get(succeeded(completion, owner, now));
          if (!row) continue;
          held.push(completion.id);
          byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + 1);
        }
        for (const [kind, n] of byKind) countOutcome.run({ kind, outcome: "succeeded", n });
        return held;
      }),
    );

  return {
    enqueue: (job) => write(() => (job.attempted ? writer.atomic(() => enqueueNow(job)) : enqueueNow(job))),
    enqueueMany: (jobs) => write(() => writer.atomic(() => jobs.map(enqueueNow))),
    lease: (req) =>
      write(() =>
        byRunAt(
          lease.all({ owner: req.owner, expires: req.now + req.leaseMs, now: req.now, kinds: JSON.stringify(req.kinds), limit: req.limit }).map(jobFromRow),
        ),
      ),
    renew: (owner, ids, expiresAt) => write(() => renew.all({ owner, ids: JSON.stringify(ids), expires: expiresAt }).map((r) => r.id)),
    complete: async (id, owner, now, nextRunAt) => (await completeMany(owner, [{ id, nextRunAt }], now)).length > 0,
    completeMany,
    countOutcomes: (counts) => {
      const counted = counts.filter((c) => c.count > 0);
      if (counted.length === 0) return Promise.resolve();
      return write(() => writer.atomic(() => counted.forEach((c) => countOutcome.run({ kind: c.kind, outcome: c.outcome, n: c.count }))));
    },
    fail: (id, owner, f) =>
      end(
        { id, owner, now: f.now, state: f.retryAt === null ? "dead" : "pending", runAt: f.retryAt, resetAttempts: 0, dropPayload: 0, error: f.error },
        failureOutcome(f.retryAt),
      ),
    release: (owner, ids, now) => write(() => release.all({ owner, ids: JSON.stringify(ids), now }).length),
    get: async (id) => {
      const row = byId.get({ id });
      return row ? jobFromRow(row) : undefined;
    },
    list: async (filter, offset, limit) => list.all({ state: filter.state ?? null, kind: filter.kind ?? null, limit, offset }).map(jobFromRow),
    count: async (filter) => count.get({ state: filter.state ?? null, kind: filter.kind ?? null })?.n ?? 0,
    retry: (id, now) =>
      write(() => {
        const row = retry.get({ id, now });
        return row ? jobFromRow(row) : undefined;
      }),
    stats: async (now) => statsFromRows({ queues: queues.all(), outcomes: outcomes.all(), oldest: oldest.all({ now }) }),
    nextDue: async (kinds) => nextDue.get({ kinds: JSON.stringify(kinds) })?.at ?? null,
    purgeDone: (before) => write(() => purgeDone.all({ before }).length),
  };
}
