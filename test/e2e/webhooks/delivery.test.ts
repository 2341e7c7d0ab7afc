// A webhook through the whole machinery: enqueued with its cause, delivered by the worker thread,
// retried while the receiver is down and then failing, delivered once, signed so that the
// standardwebhooks package and an OpenRouter-style verifier both accept it; a 410 stops it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { enqueueWebhook } from "../../../src/jobs/kinds/webhook-deliver";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { freePort } from "../../support/gateway-process";
import { until } from "../../support/until";

const YAML = "security: { allow_private_urls: true }\njobs:\n  backoff_seconds: [0.1, 0.1, 0.1, 0.1]\n  poll_seconds: 1\n";

let gw: TestGateway;
let workspaceId: string;
let secret: string;

beforeAll(async () => {
  gw = await startTestGateway({ yaml: YAML, env: { WORKERS: "1" } });
  const list = (await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> };
  workspaceId = list.data[0]!.id;
  const rotated = await gw.api(`/api/v1/workspaces/${workspaceId}/webhook-secret`, { method: "POST" });
  secret = ((await rotated.json()) as { data: { secret: string } }).data.secret;
});
afterAll(() => gw.close());

/** The 10 lines a receiver writes to check OpenRouter's header: t=<unix>,v1=<hex HMAC-SHA256 of "<t>,<body>">. */
function openRouterVerify(header: string, body: string, key: string, toleranceS = 300): boolean {
  const parts = header.split(",").map((p) => p.split("="));
  const t = parts.find(([k]) => k === "t")?.[1];
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > toleranceS) return false;
  const expected = Buffer.from(createHmac("sha256", key).update(`${t},${body}`).digest("hex"));
  return parts.filter(([k]) => k === "v1").some(([, v]) => v !== undefined && v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

test("down, then 500, then 200: one event reaches the application, the same webhook-id every time, signed both ways", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/hooks`;
  expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { webhook_url: url } })).status).toBe(200);
  const body = JSON.stringify({ type: "video.generation.completed", data: { id: "vid-1" } });
  // the receiver is down: nothing listens on the port yet
  await gw.ctx.store.transaction((tx) => enqueueWebhook(tx.jobs, { workspace_id: workspaceId, event_id: "evt_1", url: null, body }, Date.now()));
  const job = await until(
    "the first failed attempt",
    async () => {
      const [first] = await gw.ctx.store.jobs.list({ kind: "webhook.deliver" }, 0, 10);
      return first && first.attempts >= 1 && first.lastError ? first : undefined;
    },
    8000,
  );
  const seen: Array<{ id: string | null; body: string; headers: Headers }> = [];
  const application = new Set<string>();
  let answers = 0;
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      const text = await req.text();
      seen.push({ id: req.headers.get("webhook-id"), body: text, headers: req.headers });
      if (answers++ === 0) return new Response("busy", { status: 500 });
      // the application keeps what it has not seen, by webhook-id
      application.add(req.headers.get("webhook-id")!);
      return new Response(null, { status: 204 });
    },
  });
  try {
    await until("delivered", async () => ((await gw.ctx.store.jobs.get(job.id))?.state === "done" ? true : undefined), 8000);
    expect(seen.length).toBe(2);
    expect(seen.map((s) => s.id)).toEqual(["evt_1", "evt_1"]);
    expect([...application]).toEqual(["evt_1"]);
    const last = seen[1]!;
    expect(last.body).toBe(body);
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, last.headers.get(h)!]));
    expect(new Webhook(secret).verify(last.body, headers)).toEqual(JSON.parse(body));
    expect(openRouterVerify(last.headers.get("x-openrouter-signature")!, last.body, secret)).toBe(true);
    expect(openRouterVerify(last.headers.get("x-openrouter-signature")!, last.body, "whsec_wrong")).toBe(false);
    expect(last.headers.get("x-openrouter-idempotency-key")).toBe("evt_1");
    // enqueueing the same event again delivers nothing more
    await enqueueWebhook(gw.ctx.store.jobs, { workspace_id: workspaceId, event_id: "evt_1", url: null, body }, Date.now());
    await Bun.sleep(300);
    expect(seen.length).toBe(2);
  } finally {
    receiver.stop(true);
  }
}, 20_000);

test("410 Gone: the job is dead at once and the workspace's webhook_url is cleared", async () => {
  let hits = 0;
  const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (hits++, new Response("gone", { status: 410 })) });
  try {
    const url = `http://127.0.0.1:${receiver.port}/gone`;
    expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { webhook_url: url } })).status).toBe(200);
    await enqueueWebhook(gw.ctx.store.jobs, { workspace_id: workspaceId, event_id: "evt_gone", url: null, body: "{}" }, Date.now());
    const dead = await until(
      "dead",
      async () => (await gw.ctx.store.jobs.list({ state: "dead", kind: "webhook.deliver" }, 0, 10)).find((j) => (j.payload as any).event_id === "evt_gone"),
      8000,
    );
    expect(dead.attempts).toBe(1);
    expect(dead.lastError).toBe("the receiver answered 410 Gone: no more deliveries to it");
    expect(hits).toBe(1);
    const ws = (await (await gw.api(`/api/v1/workspaces/${workspaceId}`)).json()) as { data: { webhook_url: string | null } };
    expect(ws.data.webhook_url).toBeNull();
  } finally {
    receiver.stop(true);
  }
}, 20_000);
