// The job machinery in a running gateway: a worker thread runs what the HTTP side enqueues,
// failed jobs retry on the configured backoff and go dead; dead jobs are listed and retried
// through the API (management keys only); the figures reach /api/v1/jobs/stats and /metrics.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type JobReceiver, startJobReceiver } from "../../support/job-receiver";
import { until } from "../../support/until";

const JOB_KINDS = new URL("../../support/job-kinds.ts", import.meta.url).href;
const YAML = "jobs:\n  backoff_seconds: [0.05, 0.1, 0.2]\n  poll_seconds: 5\n";

let gw: TestGateway;
let receiver: JobReceiver;
/** attempts the receiver refuses, by job id */
const refuse = new Map<string, number>();

beforeAll(async () => {
  receiver = startJobReceiver((job, attempt) =>
    attempt <= (refuse.get(job) ?? 0) ? new Response("down", { status: 503 }) : new Response(null, { status: 204 }),
  );
  gw = await startTestGateway({ yaml: YAML, env: { WORKERS: "1" }, jobModules: [JOB_KINDS] });
});
afterAll(async () => {
  await gw?.close();
  receiver?.stop();
});

const enqueue = (id: string) => gw.ctx.store.jobs.enqueue({ id, kind: "test.call", payload: { url: receiver.url }, runAt: Date.now(), now: Date.now() });

const stateOf = async (id: string) => (await gw.ctx.store.jobs.get(id))?.state;

describe("jobs in a running gateway", () => {
  test("a job enqueued in a transaction runs on the worker thread at once, not waiting for the poll", async () => {
    const started = Date.now();
    await gw.ctx.store.transaction(async (tx) => {
      await tx.meta.set("cause", "x");
      await tx.jobs.enqueue({ id: "tx-job", kind: "test.call", payload: { url: receiver.url }, runAt: started, now: started });
    });
    await until("tx-job done", async () => ((await stateOf("tx-job")) === "done" ? true : undefined));
    expect(receiver.done.get("tx-job")).toBe(1);
    // poll_seconds is 5: only the wake-up explains a run this soon
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("failed attempts retry on the configured backoff, then the job is dead, listed and retried through the API", async () => {
    refuse.set("flaky", 99);
    await enqueue("flaky");
    await until("flaky dead", async () => ((await stateOf("flaky")) === "dead" ? true : undefined));
    const times = receiver.starts.get("flaky")!;
    // test.call allows 4 attempts: backoff 50, 100, 200 ms (±10 %) between them
    expect(times.length).toBe(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    [50, 100, 200].forEach((step, i) => {
      expect(gaps[i]!).toBeGreaterThanOrEqual(step * 0.9 - 5);
      expect(gaps[i]!).toBeLessThan(step * 1.1 + 150);
    });

    const listed = await gw.api("/api/v1/jobs?state=dead");
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { data: Array<Record<string, unknown>>; total_count: number };
    expect(body.total_count).toBe(1);
    expect(body.data[0]).toMatchObject({
      id: "flaky",
      kind: "test.call",
      state: "dead",
      attempts: 4,
      last_error: "HTTP 503",
      lease_owner: null,
      payload: { url: receiver.url },
    });

    refuse.set("flaky", 0);
    const retried = await gw.api("/api/v1/jobs/flaky/retry", { method: "POST" });
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      id: "flaky",
      state: "pending",
      attempts: 0,
      last_error: "HTTP 503",
    });
    await until("flaky done", async () => ((await stateOf("flaky")) === "done" ? true : undefined));
    expect(receiver.done.get("flaky")).toBe(1);

    const again = await gw.api("/api/v1/jobs/flaky/retry", { method: "POST" });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: { code: 409, message: "Job 'flaky' is done; only dead jobs can be retried", metadata: { state: "done" } } });
    const unknown = await gw.api("/api/v1/jobs/nope/retry", { method: "POST" });
    expect(unknown.status).toBe(404);
  });

  test("management keys only: 403 for an inference key; a bad state is a 400 naming the field", async () => {
    const { key } = await createInferenceKey(gw);
    for (const [path, method] of [
      ["/api/v1/jobs?state=dead", "GET"],
      ["/api/v1/jobs/stats", "GET"],
      ["/api/v1/jobs/x", "GET"],
      ["/api/v1/jobs/x/retry", "POST"],
    ] as const) {
      const res = await gw.api(path, { method, key });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe("This operation requires a management key");
    }
    const bad = await gw.api("/api/v1/jobs?state=exploded");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: {
        code: 400,
        message: `Invalid query parameter 'state': expected one of "pending", "running", "done", "dead", got "exploded"`,
        metadata: { location: "query", field: "state" },
      },
    });
  });

  test("stats and /metrics show depth by kind and state, outcomes and the oldest waiting job", async () => {
    const res = await gw.api("/api/v1/jobs/stats");
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { queues: unknown[]; outcomes: unknown[]; oldest_pending_age_seconds: number } };
    expect(data.outcomes).toContainEqual({ kind: "test.call", outcome: "failed", count: 3 });
    expect(data.outcomes).toContainEqual({ kind: "test.call", outcome: "dead", count: 1 });
    expect(data.outcomes).toContainEqual({ kind: "test.call", outcome: "succeeded", count: 2 });
    expect(data.queues).toContainEqual({ kind: "test.call", state: "done", count: 2 });
    expect(data.oldest_pending_age_seconds).toBe(0);
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toContain('gateway_jobs{kind="test.call",state="done"} 2');
    expect(metrics).toContain('gateway_job_attempts_total{kind="test.call",outcome="dead"} 1');
    // the recurring maintenance job ran on the worker at start
    expect(metrics).toContain('gateway_job_attempts_total{kind="responses.purge",outcome="succeeded"} 1');
  });

  test("enqueue-to-run delay on loopback (p50, p99)", async () => {
    const delays: number[] = [];
    for (let i = 0; i < 100; i++) {
      const at = Date.now();
      const before = receiver.starts.size;
      await enqueue(`latency-${i}`);
      await until("the attempt", () => (receiver.starts.size > before ? true : undefined));
      delays.push(receiver.starts.get(`latency-${i}`)![0]! - at);
    }
    delays.sort((a, b) => a - b);
    const p50 = delays[49]!;
    const p99 = delays[98]!;
    console.log(`jobs: enqueue-to-run delay on loopback p50 ${p50} ms, p99 ${p99} ms (100 jobs, one at a time)`);
    expect(p50).toBeLessThan(100);
  });
});
