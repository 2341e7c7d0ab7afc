// Two gateway instances on one PostgreSQL database and one Redis share a key's rate-limit
// counters: what one admitted counts on the other, exactly. Both run in this process with the
// test's clock (18 s into a minute), so the minute windows and resets are exact.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { createTestDatabase } from "../../support/postgres";
import { cleanupPrefix, TEST_REDIS_URL, uniquePrefix } from "../../support/redis";
import { describeCluster } from "./cluster";

const T0 = 1_700_000_040_000; // a whole minute
const now = T0 + 18_000;
let up: MockUpstream;
let a: TestGateway;
let b: TestGateway;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
const prefix = uniquePrefix("rate-limits");

const yaml = (url: string) => `
catalog: { default: false }
providers:
  - { slug: mock, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: t/free
    endpoints: [{ provider: mock, model: free }]
`;

const chat = (gw: TestGateway, key: string, content = "hi", stream = false) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/free", messages: [{ role: "user", content }], stream } });
const rateHeaders = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => name === "retry-after" || name.startsWith("x-ratelimit-")));
async function inTurn(targets: TestGateway[], key: string): Promise<number[]> {
  const out: number[] = [];
  for (const gw of targets) out.push(await chat(gw, key).then(async (r) => (await r.text(), r.status)));
  return out;
}

describeCluster("rate limits shared by two instances through Redis", () => {
  beforeAll(async () => {
    up = await startMockUpstream();
    up.setHandler((req) =>
      JSON.stringify(req.body).includes("slow")
        ? { text: ["one", " two", " three"], chunkDelayMs: 300, usage: { input: 10, output: 5 } }
        : { text: "ok", usage: { input: 10, output: 5 } },
    );
    db = await createTestDatabase();
    const env = (id: string) => ({
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_PREFIX: prefix,
      GATEWAY_INSTANCE_ID: id,
      GATEWAY_SECRET_KEY: "b".repeat(64),
    });
    // one after the other: the first migrates the empty database
    a = await startTestGateway({ yaml: yaml(up.url), env: env("a"), clock: () => now });
    b = await startTestGateway({ yaml: yaml(up.url), env: env("b"), clock: () => now });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await cleanupPrefix(TEST_REDIS_URL!, prefix);
    await up?.stop();
  });

  test("rpm: 3 requests across both instances pass; the 4th, on either, is a 429 with the shared figures", async () => {
    const { key } = await createInferenceKey(a, { rate_limit: { rpm: 3 } });
    expect(await inTurn([a, b, a], key)).toEqual([200, 200, 200]);
    const refused = await chat(b, key);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.message).toBe("Rate limit exceeded: this key allows 3 requests per minute; retry after 42 s");
    expect(rateHeaders(refused)).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-requests": "3",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "42s",
    });
    expect((await chat(a, key)).status).toBe(429);
  });

  test("rpm: 40 requests at once, split over both instances, admit exactly 10", async () => {
    const { key } = await createInferenceKey(a, { rate_limit: { rpm: 10 } });
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => chat(i % 2 ? a : b, key).then(async (r) => (await r.text(), r.status))));
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(30);
  });

  test("tpm: usage settled on one instance counts on the other", async () => {
    // each request: 3 estimated, 15 used; counts before each: 0, 15, 30, 45
    const { key } = await createInferenceKey(a, { rate_limit: { tpm: 33 } });
    expect(await inTurn([a, b, a], key)).toEqual([200, 200, 200]);
    const refused = await chat(b, key);
    expect(refused.status).toBe(429);
    expect(rateHeaders(refused)).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-tokens": "33",
      "x-ratelimit-remaining-tokens": "0",
      "x-ratelimit-reset-tokens": "42s",
    });
  });

  test("concurrency: a stream on each instance fills 2 slots; a third request on either is a 429 until they end", async () => {
    const { key } = await createInferenceKey(a, { rate_limit: { concurrency: 2 } });
    const streams = [await chat(a, key, "slow", true), await chat(b, key, "slow", true)];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const refused = await chat(a, key);
    expect(refused.status).toBe(429);
    expect(rateHeaders(refused)).toEqual({ "retry-after": "1", "x-ratelimit-limit-concurrency": "2", "x-ratelimit-remaining-concurrency": "0" });
    await Promise.all(streams.map((s) => s.text()));
    expect(await inTurn([b, a], key)).toEqual([200, 200]);
  });
});
