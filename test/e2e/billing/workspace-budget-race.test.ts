// The budget race: 200 parallel requests spread over three keys of one workspace with a $1
// budget never spend past it, on SQLite and on PostgreSQL, 20 rounds each; the store's
// recorded spend equals the sum of the costs charged to the clients.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { createTestDatabase, describePostgres } from "../../support/postgres";
import { billPromptLength, pricedYaml as yaml } from "./priced-upstream";

const ROUNDS = 20;
const REQUESTS = 200;
const BUDGET_NANOS = 1e9;

/** The USD cost the client was charged: `usage.cost` of the JSON answer, or of the stream's last usage chunk. */
async function charged(res: Response, streamed: boolean): Promise<number> {
  if (res.status !== 200) {
    await res.text();
    return 0;
  }
  if (!streamed) return ((await res.json()) as { usage: { cost: number } }).usage.cost;
  const costs = [...(await res.text()).matchAll(/"cost":([0-9.e-]+)/g)].map((m) => Number(m[1]));
  return costs.at(-1) ?? Number.NaN;
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

  test(`${label}: ${REQUESTS} parallel requests over three keys never spend past a $1 workspace budget (${ROUNDS} rounds)`, async () => {
    let maxSpent = 0;
    let admitted = 0;
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const slug = `race-${round}`;
      const created = await gw.api("/api/v1/workspaces", { method: "POST", json: { name: slug, slug } });
      const workspaceId = ((await created.json()) as { data: { id: string } }).data.id;
      expect((await gw.api(`/api/v1/workspaces/${slug}/budgets/lifetime`, { method: "PUT", json: { limit_usd: 1 } })).status).toBe(200);
      const keys = await Promise.all([0, 1, 2].map(() => createInferenceKey(gw, { workspace_id: slug })));
      const results = await Promise.all(
        Array.from({ length: REQUESTS }, async (_, i) => {
          const prompt = "p".repeat(50 + ((i * 37 + round * 11) % 150));
          const stream = i % 2 === 0;
          const res = await fetch(`${gw.url}/api/v1/chat/completions`, {
            method: "POST",
            headers: { authorization: `Bearer ${keys[i % 3]!.key}`, "content-type": "application/json" },
            body: JSON.stringify({ model: "test/priced", messages: [{ role: "user", content: prompt }], max_tokens: 40 + (i % 5) * 40, stream }),
          });
          return { status: res.status, cost: await charged(res, stream) };
        }),
      );
      expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
      expect(results.filter((r) => r.status === 402).length).toBeGreaterThan(0);
      const chargedNanos = Math.round(results.reduce((sum, r) => sum + r.cost, 0) * 1e9);
      const usage = await gw.ctx.store.budgets.usage(workspaceId);
      const recorded = usage?.total ?? 0;
      expect(recorded).toBeLessThanOrEqual(BUDGET_NANOS);
      // per-request costs are whole nano-dollars here, so their USD sum rounds back exactly
      expect(recorded).toBe(chargedNanos);
      const perKey = await Promise.all(keys.map((k) => gw.ctx.store.usage.get(k.hash)));
      expect(perKey.reduce((sum, u) => sum + (u?.total ?? 0), 0)).toBe(recorded);
      expect(await gw.ctx.store.budgets.held(workspaceId)).toBe(0);
      expect(await Promise.all(keys.map((k) => gw.ctx.store.reservations.held(k.hash)))).toEqual([0, 0, 0]);
      maxSpent = Math.max(maxSpent, recorded);
      admitted += results.filter((r) => r.status === 200).length;
    }
    console.log(
      `budget_race ${label}: ${ROUNDS} rounds x ${REQUESTS} requests, ${admitted} admitted, max spend $${(maxSpent / 1e9).toFixed(6)} of $1, ${Math.round(performance.now() - started)} ms`,
    );
  }, 120_000);
}

describe("workspace budget race on SQLite", () => {
  budgetRace("sqlite", (up) => startTestGateway({ yaml: yaml(up.url) }));
});

describePostgres("workspace budget race on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  budgetRace("postgres", async (up) => {
    db = await createTestDatabase();
    return startTestGateway({ yaml: yaml(up.url), env: { DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "b".repeat(64) } });
  });
  afterAll(async () => {
    await db?.drop();
  });
});
