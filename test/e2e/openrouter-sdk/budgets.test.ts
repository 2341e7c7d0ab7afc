// Workspace budgets through @openrouter/sdk (zod-checked answers), their errors through plain
// fetch, and their enforcement: 402 naming the budget, windows that reset at midnight UTC.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OpenRouter } from "@openrouter/sdk";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { sdk, sdkYaml } from "./setup";

let up: MockUpstream;
let gw: TestGateway;
let admin: OpenRouter;
let now = Date.parse("2026-11-22T12:00:00Z");

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: sdkYaml(up.url), clock: () => now });
  admin = sdk(gw, gw.adminKey);
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

const put = (ref: string, interval: string, body: unknown, key?: string) =>
  gw.api(`/api/v1/workspaces/${ref}/budgets/${interval}`, { method: "PUT", json: body, key });

/** "hi" is at most 10 prompt tokens and max_tokens 10 at most 10 completion tokens: worst case $0.00003; the mock bills 10 + 5 = $0.00002. */
function chat(key: string, maxTokens = 10) {
  up.enqueue({ text: "ok", usage: { input: 10, output: 5 } });
  return fetch(`${gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "acme/chat", messages: [{ role: "user", content: "hi" }], max_tokens: maxTokens }),
  });
}

describe("workspace budgets via @openrouter/sdk", () => {
  test("set, get, list, change and delete", async () => {
    const ws = (await admin.workspaces.create({ createWorkspaceRequest: { name: "Budgeted", slug: "budgeted" } })).data;
    const created = new Date(now).toISOString();
    const daily = await admin.workspaces.setBudget({
      workspaceRef: "budgeted",
      interval: "daily",
      upsertWorkspaceBudgetRequest: { limitUsd: 1, includeByokInBudgets: true },
    });
    expect(daily).toEqual({
      data: { id: daily.data.id, workspaceId: ws.id, limitUsd: 1, resetInterval: "daily", createdAt: created, updatedAt: created },
      includeByokInBudgets: true,
    });
    await admin.workspaces.setBudget({ workspaceRef: ws.id, interval: "lifetime", upsertWorkspaceBudgetRequest: { limitUsd: 100 } });
    await admin.workspaces.setBudget({ workspaceRef: ws.id, interval: "weekly", upsertWorkspaceBudgetRequest: { limitUsd: 5 } });
    now += 1000;
    const changed = await admin.workspaces.setBudget({
      workspaceRef: "budgeted",
      interval: "daily",
      upsertWorkspaceBudgetRequest: { limitUsd: 2, includeByokInBudgets: false },
    });
    expect(changed).toEqual({ data: { ...daily.data, limitUsd: 2, updatedAt: new Date(now).toISOString() }, includeByokInBudgets: false });
    expect(await admin.workspaces.getBudget({ workspaceRef: "budgeted", interval: "daily" })).toEqual(changed);
    const list = await admin.workspaces.listBudgets({ workspaceRef: "budgeted" });
    expect(list.data.map((b) => [b.resetInterval, b.limitUsd])).toEqual([
      ["daily", 2],
      ["weekly", 5],
      [null, 100],
    ]);
    expect(list.includeByokInBudgets).toBe(false);
    expect(await admin.workspaces.deleteBudget({ workspaceRef: "budgeted", interval: "weekly" })).toEqual({ deleted: true });
    const gone = await gw.api("/api/v1/workspaces/budgeted/budgets/weekly");
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: { code: 404, message: "Workspace 'budgeted' has no weekly budget" } });
    expect((await gw.api("/api/v1/workspaces/budgeted/budgets/weekly", { method: "DELETE" })).status).toBe(404);
  });

  test("limits must strictly decrease lifetime > monthly > weekly > daily: 400 naming limit_usd", async () => {
    await admin.workspaces.create({ createWorkspaceRequest: { name: "Ordered", slug: "ordered" } });
    await admin.workspaces.setBudget({ workspaceRef: "ordered", interval: "weekly", upsertWorkspaceBudgetRequest: { limitUsd: 10 } });
    const tooBig = await put("ordered", "daily", { limit_usd: 10 });
    expect(tooBig.status).toBe(400);
    expect(await tooBig.json()).toEqual({
      error: {
        code: 400,
        message:
          "Invalid field 'limit_usd': the daily budget must be less than the weekly budget ($10); limits must strictly decrease lifetime > monthly > weekly > daily",
        metadata: { field: "limit_usd", conflicting_interval: "weekly" },
      },
    });
    const tooSmall = await put("ordered", "monthly", { limit_usd: 9.5 });
    expect(((await tooSmall.json()) as any).error).toEqual({
      code: 400,
      message:
        "Invalid field 'limit_usd': the monthly budget must be more than the weekly budget ($10); limits must strictly decrease lifetime > monthly > weekly > daily",
      metadata: { field: "limit_usd", conflicting_interval: "weekly" },
    });
    expect((await put("ordered", "monthly", { limit_usd: 10.01 })).status).toBe(200);
    // nothing was stored by the refused calls
    expect((await admin.workspaces.listBudgets({ workspaceRef: "ordered" })).data.map((b) => b.resetInterval)).toEqual(["weekly", "monthly"]);
  });

  test("bad input is 400 naming the field; unknown workspaces 404; inference keys 403", async () => {
    const field = async (res: Response) => [res.status, ((await res.json()) as any).error.metadata?.field];
    expect(await field(await put("ordered", "daily", {}))).toEqual([400, "limit_usd"]);
    expect(await field(await put("ordered", "daily", { limit_usd: -1 }))).toEqual([400, "limit_usd"]);
    expect(await field(await put("ordered", "daily", { limit_usd: "1" }))).toEqual([400, "limit_usd"]);
    expect(await field(await put("ordered", "daily", { limit_usd: 1, extra: true }))).toEqual([400, "extra"]);
    expect(await field(await put("ordered", "daily", { limit_usd: 1, include_byok_in_budgets: "yes" }))).toEqual([400, "include_byok_in_budgets"]);
    expect(await field(await put("ordered", "hourly", { limit_usd: 1 }))).toEqual([400, "interval"]);
    expect(await field(await gw.api("/api/v1/workspaces/ordered/budgets/hourly"))).toEqual([400, "interval"]);
    const missing = await put("no-such-ws", "daily", { limit_usd: 1 });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 404, message: "Workspace not found: no-such-ws" } });
    expect((await gw.api("/api/v1/workspaces/no-such-ws/budgets")).status).toBe(404);
    const { key } = await createInferenceKey(gw);
    for (const [method, path] of [
      ["GET", "/budgets"],
      ["GET", "/budgets/daily"],
      ["PUT", "/budgets/daily"],
      ["DELETE", "/budgets/daily"],
    ] as const) {
      const res = await gw.api(`/api/v1/workspaces/ordered${path}`, { method, key, json: method === "PUT" ? { limit_usd: 1 } : undefined });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(await res.json()).toEqual({ error: { code: 403, message: "This operation requires a management key" } });
    }
  });
});

describe("workspace budgets are enforced", () => {
  test("the keys of a workspace together stop at its daily budget (402 naming it) and start again the next UTC day", async () => {
    await admin.workspaces.create({ createWorkspaceRequest: { name: "Daily", slug: "daily-ws" } });
    await admin.workspaces.setBudget({ workspaceRef: "daily-ws", interval: "daily", upsertWorkspaceBudgetRequest: { limitUsd: 0.0001 } });
    const keys = await Promise.all([1, 2, 3].map(() => createInferenceKey(gw, { workspace_id: "daily-ws" })));
    // $0.0001 holds four requests of $0.00002 whose worst case is $0.00003; the fifth does not fit in the $0.00002 left
    for (const i of [0, 1, 2, 0]) expect((await chat(keys[i]!.key)).status).toBe(200);
    const before = up.requests.length;
    const refused = await chat(keys[1]!.key);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({
      error: {
        code: 402,
        message: "This request could cost up to more than the $0.000020 left in this key's workspace daily budget; lower max_tokens or raise the budget",
        metadata: { limit_source: "openrouter_workspace_budget", budget_interval: "daily" },
      },
    });
    expect(up.requests.length).toBe(before);
    // a smaller worst case still fits
    expect((await chat(keys[2]!.key, 5)).status).toBe(200);
    expect(await sdk(gw, keys[0]!.key).credits.getCredits()).toEqual({ data: { totalCredits: 0.0001, totalUsage: 0.0001 } });
    const spent = await chat(keys[0]!.key, 1);
    expect([spent.status, ((await spent.json()) as any).error.message]).toEqual([402, "This key's workspace has reached its daily budget"]);
    now += 86_400_000;
    expect((await chat(keys[1]!.key)).status).toBe(200);
    const ws = (await admin.workspaces.get({ id: "daily-ws" })).data;
    expect(await gw.ctx.store.budgets.held(ws.id)).toBe(0);
  });

  test("a lifetime budget never resets; a key's own limit still refuses first with key_limit", async () => {
    await admin.workspaces.create({ createWorkspaceRequest: { name: "Lifetime", slug: "lifetime-ws" } });
    await admin.workspaces.setBudget({ workspaceRef: "lifetime-ws", interval: "lifetime", upsertWorkspaceBudgetRequest: { limitUsd: 0.00004 } });
    const { key } = await createInferenceKey(gw, { workspace_id: "lifetime-ws" });
    const capped = await createInferenceKey(gw, { workspace_id: "lifetime-ws", limit: 0.00001 });
    const own = await chat(capped.key);
    expect([own.status, ((await own.json()) as any).error.metadata]).toEqual([402, { limit_source: "key_limit" }]);
    expect((await chat(key)).status).toBe(200);
    expect((await chat(key)).status).toBe(402);
    expect((await chat(key, 1)).status).toBe(200);
    now += 40 * 86_400_000;
    const res = await chat(key, 1);
    expect([res.status, ((await res.json()) as any).error]).toEqual([
      402,
      {
        code: 402,
        message: "This key's workspace has reached its lifetime budget",
        metadata: { limit_source: "openrouter_workspace_budget", budget_interval: "lifetime" },
      },
    ]);
    // deleting the budget lifts it at once
    await admin.workspaces.deleteBudget({ workspaceRef: "lifetime-ws", interval: "lifetime" });
    expect((await chat(key, 1)).status).toBe(200);
  });
});
