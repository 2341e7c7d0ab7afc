// Guardrail budgets under concurrency, on SQLite and PostgreSQL: 60 parallel requests never
// spend past a key's guardrail budget, and a member guardrail's budget counts every key the
// member created; the recorded spend equals what the clients were charged, nothing stays held.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { createTestDatabase, describePostgres } from "../../support/postgres";
import { billPromptLength, pricedYaml } from "../billing/priced-upstream";
import { guardrailFor } from "./harness";

const REQUESTS = 60;
/** about 10 requests' worth: a request costs $0.01 to $0.05 here */
const BUDGET_USD = 0.25;

async function race(gw: TestGateway, keys: string[]): Promise<{ statuses: number[]; chargedNanos: number; bodies: string[] }> {
  const results = await Promise.all(
    Array.from({ length: REQUESTS }, async (_, i) => {
      const res = await fetch(`${gw.url}/api/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys[i % keys.length]}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "test/priced", messages: [{ role: "user", content: "p".repeat(50 + ((i * 37) % 150)) }], max_tokens: 40 + (i % 5) * 40 }),
      });
      const body = await res.text();
      return { status: res.status, body, cost: res.status === 200 ? (JSON.parse(body) as { usage: { cost: number } }).usage.cost : 0 };
    }),
  );
  return {
    statuses: results.map((r) => r.status),
    chargedNanos: Math.round(results.reduce((sum, r) => sum + r.cost, 0) * 1e9),
    bodies: results.filter((r) => r.status !== 200).map((r) => r.body),
  };
}

function budgetRace(label: string, start: (up: MockUpstream) => Promise<TestGateway>) {
  let up: MockUpstream;
  let gw: TestGateway;
  beforeAll(async () => {
    up = await startMockUpstream();
    billPromptLength(up);
    gw = await start(up);
  });
  afterAll(async () => {
    await gw?.close();
    await up?.stop();
  });

  test(`${label}: ${REQUESTS} parallel requests never spend past a key's guardrail budget`, async () => {
    const { key, hash } = await createInferenceKey(gw);
    const guardrailId = await guardrailFor(gw, { name: "Capped", limit_usd: BUDGET_USD, reset_interval: "monthly" }, hash);
    const { statuses, chargedNanos, bodies } = await race(gw, [key]);
    expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);
    const refusal = JSON.parse(bodies[0]!) as { error: { message: string; metadata: Record<string, unknown> } };
    expect(refusal.error.metadata).toEqual({ limit_source: "openrouter_guardrail_budget", guardrail_id: guardrailId });
    expect(refusal.error.message).toContain("guardrail 'Capped'");
    await gw.ctx.generations.settled();
    const spent = (await gw.ctx.store.usage.get(hash))?.month ?? 0;
    expect(spent).toBeLessThanOrEqual(BUDGET_USD * 1e9);
    expect(spent).toBe(chargedNanos);
    expect(await gw.ctx.store.reservations.held(hash)).toBe(0);
    console.log(`guardrail key budget ${label}: ${statuses.filter((s) => s === 200).length} admitted, spent $${(spent / 1e9).toFixed(6)} of $${BUDGET_USD}`);
  }, 60_000);

  test(`${label}: a member guardrail's budget counts all the member's keys together`, async () => {
    const workspace = (await gw.ctx.store.workspaces.getDefault())!.id;
    await gw.ctx.store.users.create({ id: `racer-${label}`, email: null, name: null, role: "member", createdAt: gw.ctx.clock() });
    const keys = await Promise.all([0, 1, 2].map(() => createInferenceKey(gw, { creator_user_id: `racer-${label}` })));
    const guardrailId = await guardrailFor(gw, { name: "Member cap", limit_usd: BUDGET_USD, reset_interval: "daily" });
    await gw.api(`/api/v1/guardrails/${guardrailId}/assignments/members`, { method: "POST", json: { member_user_ids: [`racer-${label}`] } });
    const { statuses, chargedNanos } = await race(
      gw,
      keys.map((k) => k.key),
    );
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);
    await gw.ctx.generations.settled();
    const member = await gw.ctx.store.guardrails.memberUsage(workspace, `racer-${label}`);
    expect(member?.day ?? 0).toBeLessThanOrEqual(BUDGET_USD * 1e9);
    expect(member?.day).toBe(chargedNanos);
    const perKey = await Promise.all(keys.map((k) => gw.ctx.store.usage.get(k.hash)));
    expect(perKey.reduce((sum, u) => sum + (u?.total ?? 0), 0)).toBe(chargedNanos);
    expect(perKey.filter((u) => (u?.total ?? 0) > 0).length).toBeGreaterThan(1);
    expect(await gw.ctx.store.guardrails.memberHeld(workspace, `racer-${label}`)).toBe(0);
  }, 60_000);
}

describe("guardrail budget race on SQLite", () => {
  budgetRace("sqlite", (up) => startTestGateway({ yaml: pricedYaml(up.url) }));
});

describePostgres("guardrail budget race on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  budgetRace("postgres", async (up) => {
    db = await createTestDatabase();
    return startTestGateway({ yaml: pricedYaml(up.url), env: { DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "b".repeat(64) } });
  });
  afterAll(async () => {
    await db?.drop();
  });
});
