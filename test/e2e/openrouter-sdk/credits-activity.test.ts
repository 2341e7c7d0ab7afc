// GET /credits and GET /activity through @openrouter/sdk (its zod schemas check every answer),
// and their error cases through plain fetch.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { dayKey } from "../../../src/billing/windows";
import { createInferenceKey } from "../../support/gateway";
import { costUsd, result, type SdkHarness, sdk, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

/** One chat turn that the mock bills as `input` prompt and `output` completion tokens (`reasoning` of them reasoning). */
async function turn(key: string, input: number, output: number, reasoning = 0) {
  h.up.enqueue({ text: "ok", usage: { input, output, reasoning } });
  const res = await sdk(h.gw, key).chat.send({ chatRequest: { model: "acme/chat", messages: [{ role: "user", content: "hi" }], maxTokens: 50 } });
  return result(res);
}

const today = () => dayKey(Date.now());

describe("credits", () => {
  test("a key without any limit: all-time spend, and credits no spend reaches", async () => {
    const { key } = await createInferenceKey(h.gw, { name: "unlimited" });
    expect(await sdk(h.gw, key).credits.getCredits()).toEqual({ data: { totalCredits: 1_000_000_000, totalUsage: 0 } });
    await turn(key, 100, 40);
    await turn(key, 7, 3);
    expect(await sdk(h.gw, key).credits.getCredits()).toEqual({
      data: { totalCredits: 1_000_000_000, totalUsage: (100 * 1000 + 40 * 2000 + 7 * 1000 + 3 * 2000) / 1e9 },
    });
  });

  test("a key with a limit: the limit and the spend counted against it in its window", async () => {
    const { key } = await createInferenceKey(h.gw, { name: "limited", limit: 5, limit_reset: "daily" });
    await turn(key, 1000, 500);
    expect(await sdk(h.gw, key).credits.getCredits()).toEqual({ data: { totalCredits: 5, totalUsage: costUsd(1000, 500) } });
  });

  test("a workspace budget with less left than the key's limit binds the key", async () => {
    await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Credits", slug: "credits-ws" } });
    await h.admin.workspaces.setBudget({ workspaceRef: "credits-ws", interval: "monthly", upsertWorkspaceBudgetRequest: { limitUsd: 0.01 } });
    const { key } = await createInferenceKey(h.gw, { name: "in budget", limit: 1, workspace_id: "credits-ws" });
    const other = await createInferenceKey(h.gw, { name: "teammate", workspace_id: "credits-ws" });
    await turn(key, 300, 100);
    await turn(other.key, 200, 1);
    // the budget has $0.01 - $0.000702 left, the key's limit $1 - $0.0005
    expect(await sdk(h.gw, key).credits.getCredits()).toEqual({ data: { totalCredits: 0.01, totalUsage: costUsd(500, 101) } });
  });

  test("a management key: the organization's all-time spend; credits are the lifetime budgets once every workspace has one", async () => {
    const org = costUsd(100 + 7 + 1000 + 300 + 200, 40 + 3 + 500 + 100 + 1);
    expect(await h.admin.credits.getCredits()).toEqual({ data: { totalCredits: 1_000_000_000, totalUsage: org } });
    const workspaces = (await h.admin.workspaces.list()).result.data;
    for (const [i, w] of workspaces.entries()) {
      await h.admin.workspaces.setBudget({ workspaceRef: w.id, interval: "lifetime", upsertWorkspaceBudgetRequest: { limitUsd: 10 + i } });
    }
    expect(workspaces.length).toBe(2);
    expect(await h.admin.credits.getCredits()).toEqual({ data: { totalCredits: 21, totalUsage: org } });
    for (const w of workspaces) await h.admin.workspaces.deleteBudget({ workspaceRef: w.id, interval: "lifetime" });
  });

  test("401 without a valid key", async () => {
    const res = await h.gw.api("/api/v1/credits", { key: "sk-nope" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 401, message: "Invalid API key" } });
  });
});

describe("activity", () => {
  let key: string;
  let hash: string;
  beforeAll(async () => {
    await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Activity", slug: "activity-ws" } });
    ({ key, hash } = await createInferenceKey(h.gw, { name: "active", workspace_id: "activity-ws" }));
    await turn(key, 11, 22, 5);
    await turn(key, 1, 2);
  });

  const mine = (extra: Record<string, unknown> = {}) => ({
    date: today(),
    model: "acme/chat",
    modelPermaslug: "acme/chat",
    endpointId: "mock/up-chat",
    providerName: "mock",
    requests: 2,
    promptTokens: 12,
    completionTokens: 24,
    reasoningTokens: 5,
    usage: costUsd(12, 24),
    byokUsageInference: 0,
    ...extra,
  });

  test("one row per day, model and endpoint, summed over every key of the organization", async () => {
    const all = await h.admin.analytics.getUserActivity();
    // every request of this file went to acme/chat
    expect(all.data.length).toBe(1);
    const { promptTokens, completionTokens } = all.data[0]!;
    expect(promptTokens).toBe(100 + 7 + 1000 + 300 + 200 + 12);
    expect(completionTokens).toBe(40 + 3 + 500 + 100 + 1 + 24);
    expect(all.data[0]).toEqual(mine({ requests: 7, promptTokens, completionTokens, usage: costUsd(promptTokens, completionTokens) }));
  });

  test("filters: api_key_hash, workspace_id, date; group_by=workspace names the workspace", async () => {
    expect((await h.admin.analytics.getUserActivity({ apiKeyHash: hash })).data).toEqual([mine()]);
    const ws = (await h.admin.workspaces.get({ id: "activity-ws" })).data;
    expect((await h.admin.analytics.getUserActivity({ workspaceId: ws.id })).data).toEqual([mine()]);
    expect((await h.admin.analytics.getUserActivity({ workspaceId: ws.id, groupBy: "workspace", date: today() })).data).toEqual([mine({ workspaceId: ws.id })]);
    const yesterday = dayKey(Date.now() - 86_400_000);
    expect((await h.admin.analytics.getUserActivity({ apiKeyHash: hash, date: yesterday })).data).toEqual([]);
    const grouped = (await h.admin.analytics.getUserActivity({ groupBy: "workspace" })).data;
    expect(grouped.map((r) => r.workspaceId).sort()).toEqual((await h.admin.workspaces.list()).result.data.map((w) => w.id).sort());
  });

  test("a date outside the last 30 days is 400 naming date; unknown filters 404; inference keys 403", async () => {
    const old = dayKey(Date.now() - 30 * 86_400_000);
    const res = await h.gw.api(`/api/v1/activity?date=${old}`);
    expect(res.status).toBe(400);
    const first = dayKey(Date.now() - 29 * 86_400_000);
    expect(await res.json()).toEqual({
      error: {
        code: 400,
        message: `Invalid query parameter 'date': expected a UTC date from ${first} to ${today()} (YYYY-MM-DD)`,
        metadata: { field: "date" },
      },
    });
    const malformed = await h.gw.api("/api/v1/activity?date=2026-13-45");
    expect([malformed.status, ((await malformed.json()) as any).error.metadata.field]).toEqual([400, "date"]);
    const bad = await h.gw.api("/api/v1/activity?date=yesterday");
    expect([bad.status, ((await bad.json()) as any).error.metadata.field]).toEqual([400, "date"]);
    expect((await h.gw.api("/api/v1/activity?workspace_id=nope")).status).toBe(404);
    expect((await h.gw.api("/api/v1/activity?api_key_hash=nope")).status).toBe(404);
    expect((await h.gw.api("/api/v1/activity?user_id=nope")).status).toBe(404);
    const forbidden = await h.gw.api("/api/v1/activity", { key });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ error: { code: 403, message: "This operation requires a management key" } });
  });
});
