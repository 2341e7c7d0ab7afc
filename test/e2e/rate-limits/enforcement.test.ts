// Rate limits on one instance (in-memory counters): rpm, tpm and concurrency at their bound and
// one past it, on every route (chat, responses, messages, embeddings), free endpoints included,
// and the workspace default under a key's own limits. The clock is the test's: the minute
// window starts at T0, and the requests run 18 s into it, so a reset is 42 s away.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

const T0 = 1_700_000_040_000; // a whole minute
let now = T0 + 18_000;
let up: MockUpstream;
let gw: TestGateway;

const yaml = (url: string) => `
catalog: { default: false }
providers:
  - { slug: mock, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: t/priced
    endpoints: [{ provider: mock, model: priced, pricing: { prompt: "0.000001", completion: "0.000002" }, max_completion_tokens: 50 }]
  - id: t/free
    endpoints: [{ provider: mock, model: free }]
  - id: t/embed
    output_modalities: [embeddings]
    endpoints: [{ provider: mock, model: embed, pricing: { prompt: "0.0000001" } }]
`;

beforeAll(async () => {
  up = await startMockUpstream();
  // "slow": 300 ms between stream events, so a stream stays in flight for about 2 s after its first word; "endless": about 10 s
  up.setHandler((req) => {
    const prompt = JSON.stringify(req.body);
    if (prompt.includes("slow")) return { text: ["one", " two", " three"], chunkDelayMs: 300, usage: { input: 10, output: 5 } };
    if (prompt.includes("endless")) return { text: Array.from({ length: 30 }, (_, i) => `w${i} `), chunkDelayMs: 300, usage: { input: 10, output: 30 } };
    return { text: "ok", usage: { input: 10, output: 5 } };
  });
  gw = await startTestGateway({ yaml: yaml(up.url), clock: () => now });
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

const post = (path: string, key: string, body: Record<string, unknown>, signal?: AbortSignal) =>
  gw.api(`/api/v1${path}`, { method: "POST", key, json: body, signal });
const chat = (key: string, extra: Record<string, unknown> = {}) =>
  post("/chat/completions", key, { model: "t/priced", messages: [{ role: "user", content: "hi" }], ...extra });
const slowStream = (key: string, signal?: AbortSignal, prompt = "slow") =>
  post("/chat/completions", key, { model: "t/priced", messages: [{ role: "user", content: prompt }], stream: true }, signal);
const statuses = async (responses: Promise<Response>[]) => Promise.all(responses.map(async (r) => (await r).text().then(() => r.then((x) => x.status))));
const rateHeaders = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => name === "retry-after" || name.startsWith("x-ratelimit-")));
/** sequentially, since each request's count is what the next one is checked against */
async function inTurn(n: number, send: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await send().then(async (r) => (await r.text(), r.status)));
  return out;
}

describe("requests per minute", () => {
  test("N requests pass; the N+1th is a 429 with Retry-After and the X-RateLimit headers, and nothing goes upstream; the next minute serves again", async () => {
    const { key } = await createInferenceKey(gw, { rate_limit: { rpm: 3 } });
    expect(await inTurn(3, () => chat(key))).toEqual([200, 200, 200]);
    const sent = up.requests.length;
    const refused = await chat(key);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: {
        code: 429,
        message: "Rate limit exceeded: this key allows 3 requests per minute; retry after 42 s",
        metadata: { limit_source: "key_rate_limit", exceeded: ["rpm"] },
      },
    });
    expect(rateHeaders(refused)).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-requests": "3",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "42s",
    });
    expect(refused.headers.get("x-generation-id")).toMatch(/^gen-/);
    expect(up.requests.length).toBe(sent);
    now += 42_000;
    try {
      expect(await inTurn(4, () => chat(key))).toEqual([200, 200, 200, 429]);
    } finally {
      now -= 42_000;
    }
  });

  test("an endpoint without a price is limited too", async () => {
    const { key } = await createInferenceKey(gw, { rate_limit: { rpm: 2 } });
    expect(await inTurn(3, () => chat(key, { model: "t/free" }))).toEqual([200, 200, 429]);
  });

  test("embeddings count against the same limit as completions", async () => {
    const { key } = await createInferenceKey(gw, { rate_limit: { rpm: 2 } });
    const embed = () => post("/embeddings", key, { model: "t/embed", input: "hi" });
    expect(await inTurn(1, embed)).toEqual([200]);
    expect(await inTurn(1, () => chat(key))).toEqual([200]);
    const refused = await embed();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.message).toBe("Rate limit exceeded: this key allows 2 requests per minute; retry after 42 s");
    expect(rateHeaders(refused)).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-requests": "2",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "42s",
    });
  });

  test("each inbound format answers in its own error shape: /messages with Anthropic's rate_limit_error", async () => {
    const message = "Rate limit exceeded: this key allows 1 requests per minute; retry after 42 s";
    const routes: Array<[string, Record<string, unknown>, unknown]> = [
      [
        "/chat/completions",
        { messages: [{ role: "user", content: "hi" }] },
        { error: { code: 429, message, metadata: { limit_source: "key_rate_limit", exceeded: ["rpm"] } } },
      ],
      ["/responses", { input: "hi" }, { error: { code: 429, message, metadata: { limit_source: "key_rate_limit", exceeded: ["rpm"] } } }],
      [
        "/messages",
        { max_tokens: 20, messages: [{ role: "user", content: "hi" }] },
        { type: "error", error: { type: "rate_limit_error", message }, request_id: null },
      ],
    ];
    for (const [path, body, expected] of routes) {
      const { key } = await createInferenceKey(gw, { rate_limit: { rpm: 1 } });
      expect((await post(path, key, { model: "t/priced", ...body })).status).toBe(200);
      const refused = await post(path, key, { model: "t/priced", ...body, stream: true });
      expect([path, refused.status, await refused.json()]).toEqual([path, 429, expected]);
      expect(refused.headers.get("retry-after")).toBe("42");
    }
  });
});

describe("tokens per minute", () => {
  test("the prompt estimate counts at admission and the actual usage corrects it: the request that reaches the bound passes, the next is a 429", async () => {
    // "hi" is estimated at 3 tokens; each answer uses 10 + 5 = 15: the counts before each request are 0, 15, 30, 45
    const { key } = await createInferenceKey(gw, { rate_limit: { tpm: 33 } });
    expect(await inTurn(3, () => chat(key))).toEqual([200, 200, 200]);
    const refused = await chat(key);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.message).toBe(
      "Rate limit exceeded: this key allows 33 tokens per minute (45 used, this request needs about 3); retry after 42 s",
    );
    expect(rateHeaders(refused)).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-tokens": "33",
      "x-ratelimit-remaining-tokens": "0",
      "x-ratelimit-reset-tokens": "42s",
    });
  });

  test("a request refused by the spending limit gives its estimate back", async () => {
    const { key } = await createInferenceKey(gw, { limit: 0, rate_limit: { tpm: 5 } });
    // 3 estimated tokens each: kept, the second would be over 5
    expect(await inTurn(2, () => chat(key))).toEqual([402, 402]);
  });

  test("a prompt estimated above the limit on its own is refused, saying so", async () => {
    const { key } = await createInferenceKey(gw, { rate_limit: { tpm: 10, rpm: 100 } });
    const refused = await chat(key, { messages: [{ role: "user", content: "x".repeat(100) }] });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.message).toBe(
      "Rate limit exceeded: this key allows 10 tokens per minute, less than this request's estimated 27 prompt tokens (shorten the prompt or raise the limit); retry after 42 s",
    );
    expect(rateHeaders(refused)).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-requests": "100",
      "x-ratelimit-remaining-requests": "100",
      "x-ratelimit-reset-requests": "42s",
      "x-ratelimit-limit-tokens": "10",
      "x-ratelimit-remaining-tokens": "10",
      "x-ratelimit-reset-tokens": "42s",
    });
  });
});

describe("concurrent requests", () => {
  test("N streams in flight; the N+1th request is a 429; once the streams end, requests pass again", async () => {
    const { key } = await createInferenceKey(gw, { rate_limit: { concurrency: 2 } });
    const streams = [await slowStream(key), await slowStream(key)];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const refused = await chat(key);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.message).toBe("Rate limit exceeded: this key allows 2 requests at once; retry after 1 s");
    expect(rateHeaders(refused)).toEqual({ "retry-after": "1", "x-ratelimit-limit-concurrency": "2", "x-ratelimit-remaining-concurrency": "0" });
    await Promise.all(streams.map((s) => s.text()));
    expect(await statuses([chat(key), chat(key)])).toEqual([200, 200]);
  });

  test("a client that disconnects mid-stream frees its slot long before the stream would have ended", async () => {
    const { key } = await createInferenceKey(gw, { rate_limit: { concurrency: 1 } });
    const leaving = new AbortController();
    const stream = await slowStream(key, leaving.signal, "endless");
    expect(stream.status).toBe(200);
    expect((await chat(key)).status).toBe(429);
    leaving.abort();
    let status = 429;
    // the gateway sees the client gone at its next write, within one 300 ms event; the stream had 9 s to go
    for (const deadline = performance.now() + 3_000; status === 429 && performance.now() < deadline; await Bun.sleep(25)) status = (await chat(key)).status;
    expect(status).toBe(200);
  });

  test("a request refused by the spending limit holds no slot", async () => {
    const { key } = await createInferenceKey(gw, { limit: 0, rate_limit: { concurrency: 1 } });
    expect(await inTurn(2, () => chat(key))).toEqual([402, 402]);
  });
});

describe("workspace defaults", () => {
  test("a workspace's rate_limit applies to its keys that set none; a key's own limit overrides it, limit by limit", async () => {
    const ws = (
      (await (
        await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Team", slug: "rl-team", rate_limit: { rpm: 2, tpm: 1_000 } } })
      ).json()) as any
    ).data;
    const plain = await createInferenceKey(gw, { workspace_id: ws.id });
    expect(await inTurn(3, () => chat(plain.key))).toEqual([200, 200, 429]);
    const own = await createInferenceKey(gw, { workspace_id: ws.id, rate_limit: { rpm: 4 } });
    const statusesOwn = await inTurn(5, () => chat(own.key));
    expect(statusesOwn).toEqual([200, 200, 200, 200, 429]);
    // only tpm set on the key: the workspace's rpm still holds
    const tokensOnly = await createInferenceKey(gw, { workspace_id: ws.id, rate_limit: { tpm: 500 } });
    const refused = await inTurn(3, () => chat(tokensOnly.key));
    expect(refused).toEqual([200, 200, 429]);
    const last = await chat(tokensOnly.key);
    expect(rateHeaders(last)).toMatchObject({
      "x-ratelimit-limit-requests": "2",
      "x-ratelimit-limit-tokens": "500",
      "x-ratelimit-remaining-tokens": String(500 - 2 * 15),
    });
  });

  test("a key of a workspace without defaults and without limits of its own is never counted", async () => {
    const { key } = await createInferenceKey(gw);
    expect(await inTurn(5, () => chat(key))).toEqual([200, 200, 200, 200, 200]);
  });
});
