import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { windowKeys } from "../../../src/billing/windows";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { billPromptLength, pricedYaml as yaml } from "./priced-upstream";

let up: MockUpstream;
let gw: TestGateway;

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: yaml(up.url) });
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

function chat(key: string, body: Record<string, unknown>) {
  return fetch(`${gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "test/priced", ...body }),
  });
}

function generationsOf(hash: string): { n: number; sum: number } {
  // every answer's record is committed before its last bytes, so the file already holds them all
  const db = new Database(`${gw.dir}/gateway.db`, { readonly: true });
  const row = db.query("SELECT count(*) AS n, coalesce(sum(cost_nanos), 0) AS sum FROM generations WHERE key_hash = ?").get(hash) as { n: number; sum: number };
  db.close();
  return row;
}

describe("spending limits", () => {
  test("a key with nothing left gets 402 before anything is sent upstream", async () => {
    const { key } = await createInferenceKey(gw, { limit: 0 });
    const before = up.requests.length;
    const res = await chat(key, { messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ error: { code: 402, message: "This key has reached its spending limit", metadata: { limit_source: "key_limit" } } });
    expect(up.requests.length).toBe(before);
  });

  test("a request whose worst case does not fit is refused; a smaller max_tokens fits", async () => {
    const { key } = await createInferenceKey(gw, { limit: 0.03 });
    // worst case: ~10 prompt tokens x $0.0001 + 250 x $0.0002 = $0.051 > $0.03
    expect((await chat(key, { messages: [{ role: "user", content: "hi" }] })).status).toBe(402);
    up.enqueue({ text: "ok", usage: { input: 5, output: 2 } });
    const ok = await chat(key, { messages: [{ role: "user", content: "hi" }], max_tokens: 50 });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).usage.cost).toBeCloseTo(5 * 0.0001 + 2 * 0.0002, 12);
  });

  test("usage and limit_remaining on the key are exact sums of its generations", async () => {
    const { key, hash } = await createInferenceKey(gw, { limit: 5, limit_reset: "daily" });
    up.enqueue({ text: "a", usage: { input: 7, output: 3 } }, { text: "b", usage: { input: 11, output: 13 } });
    await chat(key, { messages: [{ role: "user", content: "one two three" }], max_tokens: 20 });
    await chat(key, { messages: [{ role: "user", content: "four five six seven" }], max_tokens: 20, stream: true }).then((r) => r.text());
    const me = ((await (await gw.api("/api/v1/key", { key })).json()) as any).data;
    const expected = (7 * 100 + 3 * 200 + 11 * 100 + 13 * 200) * 1000; // nano-dollars
    expect(generationsOf(hash)).toEqual({ n: 2, sum: expected });
    expect(me.usage).toBe(expected / 1e9);
    expect(me.usage_daily).toBe(expected / 1e9);
    expect(me.limit_remaining).toBe((5e9 - expected) / 1e9);
  });

  test("an upstream that reports no usage is charged by counted tokens and marked estimated", async () => {
    const { key } = await createInferenceKey(gw, { limit: 5 });
    up.enqueue({ text: ["Hello", " there", " friend"], omitUsage: true });
    const res = await chat(key, { messages: [{ role: "user", content: "Say hello to my friend please" }], max_tokens: 20, stream: true });
    const id = res.headers.get("x-generation-id")!;
    await res.text();
    const gen = ((await (await gw.api(`/api/v1/generation?id=${id}`)).json()) as any).data;
    expect(gen.usage_estimated).toBe(true);
    expect(gen.tokens_completion).toBeGreaterThan(0);
    expect(gen.tokens_prompt).toBeGreaterThan(0);
    expect(gen.total_cost).toBeCloseTo(gen.tokens_prompt * 0.0001 + gen.tokens_completion * 0.0002, 12);
  });

  test("without usage from the upstream, a whole answer shows the client the counted tokens and their cost, as recorded", async () => {
    const { key } = await createInferenceKey(gw, { limit: 5 });
    up.enqueue({ text: "Hello there friend", omitUsage: true });
    const res = await chat(key, { messages: [{ role: "user", content: "Say hello to my friend please" }], max_tokens: 20 });
    const body = (await res.json()) as any;
    const gen = ((await (await gw.api(`/api/v1/generation?id=${res.headers.get("x-generation-id")}`)).json()) as any).data;
    expect(gen.usage_estimated).toBe(true);
    expect(gen.tokens_prompt).toBeGreaterThan(0);
    expect(gen.tokens_completion).toBeGreaterThan(0);
    expect([body.usage.prompt_tokens, body.usage.completion_tokens, body.usage.cost]).toEqual([gen.tokens_prompt, gen.tokens_completion, gen.total_cost]);
  });

  test("200 parallel requests never spend past a $1.00 limit (20 rounds)", async () => {
    billPromptLength(up);
    try {
      for (let round = 0; round < 20; round++) {
        const { key, hash } = await createInferenceKey(gw, { limit: 1 });
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => {
            const prompt = "p".repeat(50 + ((i * 37 + round * 11) % 150));
            return chat(key, { messages: [{ role: "user", content: prompt }], max_tokens: 40 + (i % 5) * 40, stream: i % 2 === 0 }).then(async (r) => {
              await r.text();
              return r.status;
            });
          }),
        );
        expect(results.every((s) => s === 200 || s === 402)).toBe(true);
        expect(results.filter((s) => s === 402).length).toBeGreaterThan(0);
        const { n, sum } = generationsOf(hash);
        expect(n).toBe(results.filter((s) => s === 200).length);
        const me = ((await (await gw.api("/api/v1/key", { key })).json()) as any).data;
        expect(sum).toBeLessThanOrEqual(1e9);
        expect(Math.round(me.usage * 1e9)).toBe(sum);
        expect(await gw.ctx.store.reservations.held(hash)).toBe(0);
      }
    } finally {
      up.setHandler(() => ({ text: "Hello from mock", usage: { input: 10, output: 5 } }));
    }
  }, 120_000);

  test("reservations left by a dead process are released at start", async () => {
    const { hash } = await createInferenceKey(gw, { limit: 1 });
    const now = Date.now();
    await gw.ctx.store.reservations.reserve({
      id: "stale",
      keyHash: hash,
      limitNanos: 1e9,
      window: { counter: "total", windowKey: "", includeByok: false },
      windows: windowKeys(now),
      amountNanos: 5e8,
      instanceId: "dead",
      now,
      expiresAt: now + 3_600_000,
    });
    expect(await gw.ctx.store.reservations.held(hash)).toBe(5e8);
    const again = await startTestGateway({ dir: gw.dir, yaml: yaml(up.url) });
    expect(await again.ctx.store.reservations.held(hash)).toBe(0);
    await again.stop();
  });
});
