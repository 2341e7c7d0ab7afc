// A video job whose submission is in flight when the gateway is SIGKILLed (issue 38), on SQLite and
// on PostgreSQL. At least once: after the restart the interrupted submission is sent again once its
// lease lapses, and the job completes, charged once and announced by one webhook. And a job still
// pending at its deadline (its submission's lease outlives the deadline) fails at the deadline:
// cost 0, reservation released, one `failed` webhook, nothing sent upstream again.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createPgStore } from "../../../src/store/pg";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { type GatewayProcess, startGatewayProcess } from "../../support/gateway-process";
import { createTestDatabase, describePostgres } from "../../support/postgres";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "../videos/setup";

/** retrieves answer in_progress while this holds */
const HOLD = 1_000_000;
/** a create the upstream takes this long to answer is in flight when the gateway is killed */
const SLOW_CREATE_MS = 600_000;

type Dialect = { env: (dir: string) => Promise<Record<string, string>>; openStore: (env: Record<string, string>) => Promise<Store> };

type Event = { type: string; jobId: string };

type Run = {
  gw: GatewayProcess;
  up: OpenAiVideoMock;
  store: Store;
  env: Record<string, string>;
  key: string;
  hash: string;
  events: Event[];
  close(): Promise<void>;
};

/** A gateway process (one job worker) over the OpenAI-shaped mock, a key with $100, and the workspace's webhook receiver. */
async function start(dialect: Dialect, jobs: string, deadlineMinutes: number): Promise<Run> {
  const up = startOpenAiVideoMock({ bytes: 20_000 });
  const events: Event[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const event = JSON.parse(await req.text()) as { type: string; data: { id: string } };
      events.push({ type: event.type, jobId: event.data.id });
      return new Response(null, { status: 204 });
    },
  });
  const dir = tempDir("gw-video-submit-crash-");
  const yaml = videoYaml(up.url)
    .replace("jobs: { poll_seconds: 0.05, backoff_seconds: [0.1, 0.1, 0.1] }", `jobs: { poll_seconds: 0.05, backoff_seconds: [0.1, 0.1, 0.1], ${jobs} }`)
    .replace("deadline_minutes: 0.05", `deadline_minutes: ${deadlineMinutes}`);
  await Bun.write(join(dir, "gateway.yaml"), yaml);
  const env = { ...(await dialect.env(dir)), GATEWAY_CONFIG: join(dir, "gateway.yaml"), WORKERS: "1" };
  const gw = await startGatewayProcess(env);
  // the gateway created and migrated the database; this connection only reads
  const store = await dialect.openStore(env);
  const created = await gw.api("/api/v1/keys", { method: "POST", json: { name: "crash key", limit: 100 } });
  const { key, data } = (await created.json()) as { key: string; data: { hash: string; workspace_id: string } };
  expect(
    (await gw.api(`/api/v1/workspaces/${data.workspace_id}`, { method: "PATCH", json: { webhook_url: `http://127.0.0.1:${receiver.port}/hooks` } })).status,
  ).toBe(200);
  const run: Run = {
    gw,
    up,
    store,
    env,
    key,
    hash: data.hash,
    events,
    async close() {
      await run.gw.stop();
      await store.close();
      up.stop();
      receiver.stop(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return run;
}

type Job = { status: string; error?: string; usage?: { cost: number } };

const jobOf = async (r: Run, id: string) => (await (await r.gw.api(`/api/v1/videos/${id}`, { key: r.key })).json()) as Job;

async function post(r: Run, prompt: string): Promise<string> {
  const res = await r.gw.api("/api/v1/videos", { method: "POST", key: r.key, json: { model: "openai/sora-2", prompt, duration: 4 } });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

const createsOf = (r: Run, prompt: string) => r.up.creates.filter((c) => c.prompt === prompt).length;

/** Posts a job whose create the upstream holds, and SIGKILLs the gateway while that call is in flight; the job's submission is leased by the dead process. */
async function killDuringSubmission(r: Run, prompt: string): Promise<string> {
  r.up.createDelayMs = SLOW_CREATE_MS;
  const id = await post(r, prompt);
  await until(`${prompt}: create in flight`, () => (createsOf(r, prompt) === 1 ? true : undefined), 10_000, 10);
  await r.gw.kill();
  r.up.createDelayMs = 0;
  expect((await r.store.videoJobs.get(id))?.status).toBe("pending");
  expect((await r.store.jobs.list({ kind: "video.submit", state: "running" }, 0, 10)).map((j) => j.payload)).toEqual([{ video_id: id }]);
  return id;
}

async function spent(r: Run): Promise<number> {
  return ((await (await r.gw.api("/api/v1/key", { key: r.key })).json()) as { data: { usage: number } }).data.usage;
}

/** Events delivered so far, once whatever is still queued had time to arrive. */
async function settledEvents(r: Run, atLeast: number): Promise<Event[]> {
  await until(`${atLeast} webhook events`, () => (r.events.length >= atLeast ? true : undefined), 8_000, 20);
  await Bun.sleep(500);
  return [...r.events].sort((a, b) => a.jobId.localeCompare(b.jobId));
}

async function interruptedSubmissionCompletes(dialect: Dialect, label: string): Promise<void> {
  const r = await start(dialect, "lease_seconds: 1", 1);
  try {
    r.up.progressPolls = HOLD;
    const sibling = await post(r, "sibling");
    await until("sibling in_progress", async () => ((await jobOf(r, sibling)).status === "in_progress" ? true : undefined), 10_000, 20);
    const id = await killDuringSubmission(r, "interrupted");
    r.up.progressPolls = 0;
    const restarted = Date.now();
    r.gw = await startGatewayProcess(r.env);
    const done = await until(
      "both jobs completed",
      async () => {
        const [a, b] = await Promise.all([jobOf(r, sibling), jobOf(r, id)]);
        expect([a.status, b.status]).not.toContain("failed");
        return a.status === "completed" && b.status === "completed" ? [a, b] : undefined;
      },
      15_000,
      20,
    );
    const ms = Date.now() - restarted;
    console.log(`video submit crash (${label}): the interrupted submission was sent again and its job completed ${ms} ms after the restart`);
    // sent again once the dead process's lease (1 s) lapsed: the upstream got two creates and holds two jobs
    expect(createsOf(r, "interrupted")).toBe(2);
    expect(createsOf(r, "sibling")).toBe(1);
    expect(done.map((j) => j.usage?.cost)).toEqual([0.61, 0.61]);
    expect(await spent(r)).toBeCloseTo(1.22, 9);
    const events = await settledEvents(r, 2);
    expect(events).toEqual([sibling, id].sort((a, b) => a.localeCompare(b)).map((jobId) => ({ type: "video.generation.completed", jobId })));
    if (r.store.dialect === "postgres") expect(await r.store.reservations.held(r.hash)).toBe(0);
    expect(ms).toBeLessThan(10_000);
  } finally {
    await r.close();
  }
}

async function pendingAtDeadlineFails(dialect: Dialect, label: string): Promise<void> {
  // the dead process's lease (8 s) outlives the job's deadline (3 s): only the deadline can end it in time
  const r = await start(dialect, "lease_seconds: 8", 0.05);
  try {
    const createdAt = Date.now();
    const id = await killDuringSubmission(r, "never accepted");
    r.gw = await startGatewayProcess(r.env);
    const failed = await until(
      "the job failed",
      async () => {
        const job = await jobOf(r, id);
        return job.status === "pending" ? undefined : job;
      },
      15_000,
      20,
    );
    const ms = Date.now() - createdAt;
    console.log(`video submit crash (${label}): a job pending at its 3 s deadline failed ${ms} ms after it was created`);
    expect(failed).toMatchObject({ status: "failed", error: "The video was not accepted by any provider before its deadline" });
    expect(ms).toBeGreaterThanOrEqual(2_900);
    expect(ms).toBeLessThan(6_000);
    const stored = await r.store.videoJobs.get(id);
    const generation = (await (await r.gw.api(`/api/v1/generation?id=${stored!.generationId}`, { key: r.key })).json()) as { data: Record<string, unknown> };
    expect(generation.data).toMatchObject({ api_type: "video", total_cost: 0 });
    expect(await spent(r)).toBe(0);
    if (r.store.dialect === "postgres") expect(await r.store.reservations.held(r.hash)).toBe(0);
    // the submission runs again when the dead process's lease lapses, finds the job failed and sends nothing
    await until(
      "the submission done",
      async () => ((await r.store.jobs.list({ kind: "video.submit", state: "done" }, 0, 10)).length === 1 ? true : undefined),
      15_000,
      50,
    );
    expect(createsOf(r, "never accepted")).toBe(1);
    expect(await settledEvents(r, 1)).toEqual([{ type: "video.generation.failed", jobId: id }]);
  } finally {
    await r.close();
  }
}

const sqlite: Dialect = {
  env: async (dir) => ({ DATABASE_URL: `file:${join(dir, "g.db")}` }),
  openStore: async (env) => createSqliteStore(env.DATABASE_URL!.slice("file:".length), { migrate: false }),
};

test("sqlite: a submission in flight at a SIGKILL is sent again after the restart; the job completes, charged once, one webhook", async () => {
  await interruptedSubmissionCompletes(sqlite, "sqlite");
}, 60_000);

test("sqlite: a job whose submission a SIGKILL holds past its deadline fails at the deadline; cost 0, one failed webhook", async () => {
  await pendingAtDeadlineFails(sqlite, "sqlite");
}, 60_000);

describePostgres("postgres", () => {
  const databases: Array<{ drop(): Promise<void> }> = [];
  const postgres: Dialect = {
    async env() {
      const db = await createTestDatabase();
      databases.push(db);
      return { DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "0".repeat(64) };
    },
    openStore: async (env) => createPgStore(env.DATABASE_URL!, { poolSize: 1 }),
  };
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });

  test("a submission in flight at a SIGKILL is sent again after the restart; the job completes, charged once, one webhook, no reservation held", async () => {
    await interruptedSubmissionCompletes(postgres, "postgres");
  }, 60_000);

  test("a job whose submission a SIGKILL holds past its deadline fails at the deadline; cost 0, reservation released, one failed webhook", async () => {
    await pendingAtDeadlineFails(postgres, "postgres");
  }, 60_000);
});
