// Budget alerts: alert_thresholds on a key (POST/PATCH /keys) and on a workspace budget (PUT
// /workspaces/{id}/budgets/{interval}); each threshold the spend of the current window reaches
// sends exactly one signed budget.threshold_reached webhook to the workspace's webhook_url, through
// the job queue, however many requests follow; thresholds are checked, stored sorted, and named
// in 400s.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { createInferenceKey } from "../support/gateway";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../support/gateway-and-upstream";
import { type HttpRecorder, startHttpRecorder } from "../support/http-recorder";
import { until } from "../support/until";

let h: GatewayAndUpstream;
let receiver: HttpRecorder;
let workspaceId: string;
let secret: string;

beforeAll(async () => {
  receiver = startHttpRecorder();
  h = await startGatewayAndUpstream({
    env: { WORKERS: "1" },
    yaml: (url) => `
security: { allow_private_urls: true }
jobs: { poll_seconds: 1 }
providers: [{ slug: pa, api: openai-chat, base_url: "${url}", api_key: k }]
models:
  - id: t/ok
    endpoints: [{ provider: pa, model: up-a, pricing: { prompt: "0.000001", completion: "0.000002" }, max_completion_tokens: 5 }]
`,
  });
  // each request: 10 prompt and 5 completion tokens, $0.00002
  h.up.setHandler(() => ({ text: "ok", usage: { input: 10, output: 5 } }));
  const created = await h.gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Alerts", slug: "alerts", webhook_url: `${receiver.url}/hooks` } });
  workspaceId = ((await created.json()) as { data: { id: string } }).data.id;
  secret = ((await (await h.gw.api(`/api/v1/workspaces/${workspaceId}/webhook-secret`, { method: "POST" })).json()) as { data: { secret: string } }).data
    .secret;
});
afterAll(async () => {
  await h.close();
  await receiver.stop();
});

const chat = (key: string) =>
  h.gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/ok", max_tokens: 5, messages: [{ role: "user", content: "hi" }] } });

/** every event received so far, signatures verified with the workspace's secret */
function events(): Array<{ type: string; data: Record<string, unknown> }> {
  return receiver.requests.map((r) => {
    const headers = {
      "webhook-id": r.headers["webhook-id"]!,
      "webhook-timestamp": r.headers["webhook-timestamp"]!,
      "webhook-signature": r.headers["webhook-signature"]!,
    };
    return new Webhook(secret).verify(r.body, headers) as { type: string; data: Record<string, unknown> };
  });
}

async function settle() {
  await h.gw.ctx.generations.settled();
  await h.gw.ctx.budgetAlerts.settled();
}

test("a key's thresholds: each sent once when its window's spend reaches it, signed, whatever follows", async () => {
  const created = await h.gw.api("/api/v1/keys", {
    method: "POST",
    json: { name: "alerting", limit: 0.0001, limit_reset: "daily", workspace_id: workspaceId, alert_thresholds: [1, 0.5, 0.8] },
  });
  expect(created.status).toBe(201);
  const { key, data } = (await created.json()) as { key: string; data: { hash: string; alert_thresholds: number[] } };
  expect(data.alert_thresholds).toEqual([0.5, 0.8, 1]);
  for (let i = 0; i < 2; i++) expect((await chat(key)).status).toBe(200);
  await settle();
  // 40 % spent: no threshold yet
  expect(receiver.requests.length).toBe(0);
  expect((await chat(key)).status).toBe(200);
  await settle();
  await receiver.waitFor(1, 8000);
  expect((await chat(key)).status).toBe(200);
  expect((await chat(key)).status).toBe(200);
  await settle();
  await receiver.waitFor(3, 8000);
  // the limit is spent: refused, and no event more
  expect((await chat(key)).status).toBe(402);
  await settle();
  await Bun.sleep(1_200);
  const got = events();
  expect(got.map((e) => e.type)).toEqual(["budget.threshold_reached", "budget.threshold_reached", "budget.threshold_reached"]);
  expect(got.map((e) => e.data)).toEqual([
    { scope: "key", id: data.hash, interval: "daily", threshold: 0.5, limit_usd: 0.0001, usage_usd: 0.00006 },
    { scope: "key", id: data.hash, interval: "daily", threshold: 0.8, limit_usd: 0.0001, usage_usd: 0.00008 },
    { scope: "key", id: data.hash, interval: "daily", threshold: 1, limit_usd: 0.0001, usage_usd: 0.0001 },
  ]);
  expect(new Set(receiver.requests.map((r) => r.headers["webhook-id"])).size).toBe(3);
  expect(receiver.requests[0]!.body).toContain('"timestamp":"');
});

test("a workspace budget's thresholds, set with PUT, sent once per threshold", async () => {
  receiver.reset();
  const put = await h.gw.api(`/api/v1/workspaces/${workspaceId}/budgets/monthly`, { method: "PUT", json: { limit_usd: 1, alert_thresholds: [0.0001] } });
  expect(put.status).toBe(200);
  expect(((await put.json()) as { data: { alert_thresholds: number[] } }).data.alert_thresholds).toEqual([0.0001]);
  // a PUT without thresholds keeps them
  const again = await h.gw.api(`/api/v1/workspaces/${workspaceId}/budgets/monthly`, { method: "PUT", json: { limit_usd: 1 } });
  expect(((await again.json()) as { data: { alert_thresholds: number[] } }).data.alert_thresholds).toEqual([0.0001]);
  const { key } = await createInferenceKey(h.gw, { name: "budgeted", workspace_id: workspaceId });
  expect((await chat(key)).status).toBe(200);
  expect((await chat(key)).status).toBe(200);
  await settle();
  await receiver.waitFor(1, 8000);
  await Bun.sleep(1_200);
  const got = events();
  expect(got.length).toBe(1);
  // the budget counts the whole workspace's month (the first test's key spent $0.0001): the first request reached it, the second sent nothing more
  expect(got[0]!.data).toEqual({ scope: "workspace_budget", id: workspaceId, interval: "monthly", threshold: 0.0001, limit_usd: 1, usage_usd: 0.00012 });
});

test("PATCH sets and clears a key's thresholds; bad thresholds are 400s naming the field", async () => {
  const { hash } = await createInferenceKey(h.gw, { name: "patched" });
  const patched = await h.gw.api(`/api/v1/keys/${hash}`, { method: "PATCH", json: { alert_thresholds: [0.9, 0.25] } });
  expect(((await patched.json()) as { data: { alert_thresholds: number[] } }).data.alert_thresholds).toEqual([0.25, 0.9]);
  const cleared = await h.gw.api(`/api/v1/keys/${hash}`, { method: "PATCH", json: { alert_thresholds: null } });
  expect(((await cleared.json()) as { data: { alert_thresholds: null } }).data.alert_thresholds).toBeNull();
  for (const [body, field] of [
    [{ alert_thresholds: [0] }, "alert_thresholds[0]"],
    [{ alert_thresholds: [1.5] }, "alert_thresholds[0]"],
    [{ alert_thresholds: [0.5, 0.5] }, "alert_thresholds"],
    [{ alert_thresholds: "0.5" }, "alert_thresholds"],
  ] as const) {
    const res = await h.gw.api(`/api/v1/keys/${hash}`, { method: "PATCH", json: body });
    const json = (await res.json()) as { error: { metadata?: { field?: string } } };
    expect({ body, status: res.status, field: json.error.metadata?.field }).toEqual({ body, status: 400, field });
  }
  const budget = await h.gw.api(`/api/v1/workspaces/${workspaceId}/budgets/daily`, { method: "PUT", json: { limit_usd: 0.5, alert_thresholds: [2] } });
  expect(budget.status).toBe(400);
});

test("the alerts are recorded once each, in the store too", async () => {
  await until("recorded", async () => ((await h.gw.ctx.store.budgetAlerts.recent(0, 10)).length === 4 ? true : undefined), 5000);
});
