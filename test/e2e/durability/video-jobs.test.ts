// Video jobs `in_progress` through a graceful restart (SIGTERM) and through a SIGKILL, on SQLite
// and on PostgreSQL (issue 17): every job completes, its content downloads byte for byte, the
// workspace's receiver gets exactly one `video.generation.completed` event per job although it
// answers 500 to each event's first delivery, and the key's spend is the sum of the jobs' costs.
import { afterAll, beforeAll, expect, test } from "bun:test";
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

const JOBS = 6;
/** retrieves answer in_progress while this holds: the videos stay in progress until the test lets them finish */
const HOLD = 1_000_000;

const yamlOf = (url: string) =>
  videoYaml(url)
    .replace(
      "jobs: { poll_seconds: 0.05, backoff_seconds: [0.1, 0.1, 0.1] }",
      "jobs: { poll_seconds: 0.05, lease_seconds: 1, backoff_seconds: [0.1, 0.1, 0.1, 0.1, 0.1] }",
    )
    .replace("deadline_minutes: 0.05", "deadline_minutes: 1");

type Hook = { webhookId: string; type: string; jobId: string; status: number };

/** The workspace's receiver: every event's first delivery gets 500, later ones 204. */
function startReceiver() {
  const hooks: Hook[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const event = JSON.parse(await req.text()) as { type: string; data: { id: string } };
      const webhookId = req.headers.get("webhook-id") ?? "";
      const status = hooks.some((h) => h.webhookId === webhookId) ? 204 : 500;
      hooks.push({ webhookId, type: event.type, jobId: event.data.id, status });
      return new Response(null, { status });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hooks`, hooks, stop: () => server.stop(true) };
}

type Receiver = ReturnType<typeof startReceiver>;

type Ctx = { env: Record<string, string>; up: OpenAiVideoMock; receiver: Receiver; key: string; hash: string; store: Store };

async function statusOf(gw: GatewayProcess, key: string, id: string) {
  return (await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string; usage?: { cost: number } };
}

async function submit(gw: GatewayProcess, key: string, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    const res = await gw.api("/api/v1/videos", { method: "POST", key, json: { model: "openai/sora-2", prompt: `${label} ${i}`, duration: 4 } });
    expect(res.status).toBe(202);
    ids.push(((await res.json()) as { id: string }).id);
  }
  await until(
    `${label}: every job in_progress`,
    async () => {
      const all = await Promise.all(ids.map((id) => statusOf(gw, key, id)));
      return all.every((j) => j.status === "in_progress") ? true : undefined;
    },
    10_000,
    20,
  );
  return ids;
}

/** Restarts the gateway (`how`) while the jobs are in progress, lets them finish; the time from the restart to the last completion. */
async function restartWhileInProgress(
  c: Ctx,
  gw: GatewayProcess,
  ids: string[],
  how: "stop" | "kill",
): Promise<{ gw: GatewayProcess; ms: number; leased: number }> {
  // slow retrieves, so that the worker holds poll jobs mid-call when the signal comes
  c.up.delayMs = 1_500;
  const leased = await until(
    `${how}: poll jobs leased`,
    async () => {
      const n = await c.store.jobs.count({ state: "running" });
      return n >= 2 ? n : undefined;
    },
    5_000,
    10,
  );
  await (how === "stop" ? gw.stop("SIGTERM") : gw.kill());
  c.up.delayMs = 0;
  const restarted = Date.now();
  const next = await startGatewayProcess(c.env);
  c.up.progressPolls = 0;
  const costs = await until(
    `${how}: every job completed`,
    async () => {
      const all = await Promise.all(ids.map((id) => statusOf(next, c.key, id)));
      expect(all.filter((j) => j.status === "failed")).toEqual([]);
      return all.every((j) => j.status === "completed") ? all : undefined;
    },
    15_000,
    20,
  );
  const ms = Date.now() - restarted;
  for (const j of costs) expect(j.usage!.cost).toBe(0.61);
  return { gw: next, ms, leased };
}

async function checkOutcome(c: Ctx, gw: GatewayProcess, ids: string[]): Promise<void> {
  for (const id of ids) {
    const bytes = new Uint8Array(await (await gw.api(`/api/v1/videos/${id}/content`, { key: c.key })).arrayBuffer());
    expect(bytes.length).toBe(c.up.bytes.length);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(c.up.bytes))).toBe(0);
  }
  const delivered = () => c.receiver.hooks.filter((h) => h.status === 204);
  await until("one delivered event per job", () => (delivered().length >= ids.length ? true : undefined), 8_000, 20);
  // whatever is still queued would arrive now
  await Bun.sleep(400);
  const completed = delivered().filter((h) => h.type === "video.generation.completed");
  expect(completed.map((h) => h.jobId).sort()).toEqual([...ids].sort());
  expect(new Set(completed.map((h) => h.webhookId)).size).toBe(ids.length);
  expect(delivered().length).toBe(ids.length);
  // each event was refused once and delivered once, under one webhook-id
  for (const id of ids)
    expect(c.receiver.hooks.filter((h) => h.jobId === id).map((h) => [h.webhookId, h.status])).toEqual([
      [`${id}-completed`, 500],
      [`${id}-completed`, 204],
    ]);
  const me = (await (await gw.api("/api/v1/key", { key: c.key })).json()) as { data: { usage: number } };
  expect(me.data.usage).toBeCloseTo(0.61 * ids.length, 9);
  if (c.store.dialect === "postgres") expect(await c.store.reservations.held(c.hash)).toBe(0);
}

async function scenario(env: Record<string, string>, label: string, openStore: (env: Record<string, string>) => Promise<Store>): Promise<void> {
  const up = startOpenAiVideoMock({ bytes: 50_000 });
  const receiver = startReceiver();
  const dir = tempDir("gw-video-durability-");
  await Bun.write(join(dir, "gateway.yaml"), yamlOf(up.url));
  const fullEnv = { DATABASE_URL: `file:${join(dir, "g.db")}`, ...env, GATEWAY_CONFIG: join(dir, "gateway.yaml"), WORKERS: "1" };
  let gw = await startGatewayProcess(fullEnv);
  // the gateway created and migrated the database; this connection only reads
  const store = await openStore(fullEnv);
  try {
    const created = await gw.api("/api/v1/keys", { method: "POST", json: { name: "durable video key", limit: 100 } });
    const { key, data } = (await created.json()) as { key: string; data: { hash: string; workspace_id: string } };
    expect((await gw.api(`/api/v1/workspaces/${data.workspace_id}`, { method: "PATCH", json: { webhook_url: receiver.url } })).status).toBe(200);
    const c: Ctx = { env: fullEnv, up, receiver, key, hash: data.hash, store };
    const all: string[] = [];
    for (const how of ["stop", "kill"] as const) {
      up.progressPolls = HOLD;
      const ids = await submit(gw, key, `${label} ${how}`);
      all.push(...ids);
      const r = await restartWhileInProgress(c, gw, ids, how);
      gw = r.gw;
      console.log(
        `video durability (${label}): ${ids.length} jobs in_progress, ${r.leased} poll jobs leased at the ${how === "stop" ? "SIGTERM" : "SIGKILL"}; all completed ${r.ms} ms after it`,
      );
      await checkOutcome(c, gw, all);
    }
  } finally {
    await gw.stop();
    await store.close();
    up.stop();
    receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("sqlite: video jobs in progress survive a SIGTERM restart and a SIGKILL; one webhook each, spend charged once", async () => {
  await scenario({}, "sqlite", async (env) => createSqliteStore(env.DATABASE_URL!.slice("file:".length), { migrate: false }));
}, 60_000);

describePostgres("postgres", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  test("video jobs in progress survive a SIGTERM restart and a SIGKILL; one webhook each, spend charged once, no reservation held", async () => {
    await scenario({ DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "0".repeat(64) }, "postgres", () => createPgStore(db.url, { poolSize: 1 }));
  }, 60_000);
});
