// The response cache's contract, through the official openai client and raw HTTP against the mock
// upstream: hits and misses and their headers, max-age, refresh, off, the default, the 400 for a
// bad header value, the record and usage of a hit, TTL expiry and the purge, max_entry_bytes,
// workspaces, errors and cut streams never kept, rate limits, metrics, DELETE /api/v1/cache.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { createInferenceKey } from "../../support/gateway";
import type { GatewayAndUpstream } from "../../support/gateway-and-upstream";
import { sseJson } from "../../support/sse";
import { generation, keyUsage, startCacheGateway } from "./support";

let h: GatewayAndUpstream;
let openai: OpenAI;
/** moves the gateway's clock (TTL, Age, max-age) */
let offsetMs = 0;
const clock = () => Date.now() + offsetMs;
let n = 0;
/** a question no other test asks */
const fresh = () => `question ${++n} ${crypto.randomUUID()}`;

const CONFIG = `response_cache:
  enabled: true
  default: off
  ttl_seconds: 60
  max_entry_bytes: 600
`;

beforeAll(async () => {
  h = await startCacheGateway(CONFIG, { clock });
  openai = new OpenAI({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key, maxRetries: 0 });
});
afterAll(() => h.close());
beforeEach(() => {
  h.up.reset();
  offsetMs = 0;
});

const body = (content: string, extra: Record<string, unknown> = {}) => ({ model: "t/chat", messages: [{ role: "user" as const, content }], ...extra });
const chat = (content: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}, key = h.key) =>
  h.gw.api("/api/v1/chat/completions", { method: "POST", key, headers, json: body(content, extra) });
const ON = { "x-gateway-cache": "on" };

describe("headers", () => {
  test("on: MISS calls upstream, then HIT with Age 0 sends nothing; the answer, finish reason and tokens are the kept ones with cost 0", async () => {
    const q = fresh();
    h.up.enqueue({ text: "Paris.", usage: { input: 12, output: 3 } });
    const first = await openai.chat.completions.create(body(q), { headers: ON }).withResponse();
    expect(first.response.headers.get("x-gateway-cache")).toBe("MISS");
    expect(first.response.headers.get("age")).toBeNull();
    const usageAfterMiss = await keyUsage(h);
    expect(usageAfterMiss).toBeCloseTo(12 * 0.000001 + 3 * 0.000002, 12);
    const second = await openai.chat.completions.create(body(q), { headers: ON }).withResponse();
    expect(second.response.headers.get("x-gateway-cache")).toBe("HIT");
    expect(second.response.headers.get("age")).toBe("0");
    expect(h.up.requests.length).toBe(1);
    expect(second.data.choices[0]!.message.content).toBe("Paris.");
    expect(second.data.choices[0]!.finish_reason).toBe("stop");
    expect(second.data.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, cost: 0 });
    const id = second.response.headers.get("x-generation-id")!;
    expect(id).not.toBe(first.response.headers.get("x-generation-id"));
    expect(second.data.id).toBe(id);
    expect(await keyUsage(h)).toBe(usageAfterMiss);
  });

  test("the header's value is read in any case; Age counts whole seconds", async () => {
    const q = fresh();
    expect((await chat(q, { "x-gateway-cache": "ON" })).headers.get("x-gateway-cache")).toBe("MISS");
    offsetMs = 7_900;
    const hit = await chat(q, { "x-gateway-cache": " On " });
    expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
    expect(hit.headers.get("age")).toBe("7");
    expect(h.up.requests.length).toBe(1);
  });

  test("default off: no header is BYPASS (nothing looked up or kept), off is BYPASS too", async () => {
    const q = fresh();
    for (const headers of [{}, { "x-gateway-cache": "off" }, {}] as Record<string, string>[]) {
      const res = await chat(q, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gateway-cache")).toBe("BYPASS");
    }
    expect(h.up.requests.length).toBe(3);
    // nothing was kept: the first "on" is a miss
    expect((await chat(q, ON)).headers.get("x-gateway-cache")).toBe("MISS");
    expect((await chat(q, { "x-gateway-cache": "off" })).headers.get("x-gateway-cache")).toBe("BYPASS");
    expect(h.up.requests.length).toBe(5);
  });

  test("refresh: no look-up (MISS), the new answer replaces the kept one", async () => {
    const q = fresh();
    h.up.enqueue({ text: "old" }, { text: "new" });
    await chat(q, ON);
    const refreshed = await chat(q, { "x-gateway-cache": "REFRESH" });
    expect(refreshed.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await refreshed.json()) as any).choices[0].message.content).toBe("new");
    const hit = await chat(q, ON);
    expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
    expect(((await hit.json()) as any).choices[0].message.content).toBe("new");
    expect(h.up.requests.length).toBe(2);
  });

  test("Cache-Control max-age: an entry older than N seconds is a MISS; max-age=0 never hits", async () => {
    const q = fresh();
    h.up.enqueue({ text: "first" }, { text: "second" }, { text: "third" });
    await chat(q, ON);
    offsetMs = 5_000;
    const young = await chat(q, { ...ON, "cache-control": "max-age=5" });
    expect(young.headers.get("x-gateway-cache")).toBe("HIT");
    expect(young.headers.get("age")).toBe("5");
    const tooOld = await chat(q, { ...ON, "cache-control": "no-transform, max-age=4" });
    expect(tooOld.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await tooOld.json()) as any).choices[0].message.content).toBe("second");
    const zero = await chat(q, { ...ON, "cache-control": "max-age=0" });
    expect(zero.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await zero.json()) as any).choices[0].message.content).toBe("third");
    expect(h.up.requests.length).toBe(3);
  });

  test("any other value is a 400 naming the header, before anything goes upstream", async () => {
    for (const value of ["yes", "hit", ""]) {
      const res = await chat(fresh(), { "x-gateway-cache": value });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: 400, message: `Invalid header 'X-Gateway-Cache': expected on, off or refresh (got "${value}")`, metadata: { field: "x-gateway-cache" } },
      });
    }
    expect(h.up.requests.length).toBe(0);
  });

  test("a streamed request hits what a JSON one kept, and the other way round", async () => {
    const q = fresh();
    h.up.enqueue({ text: ["Hel", "lo"], usage: { input: 9, output: 2 } });
    await chat(q, ON);
    const stream = await chat(q, ON, { stream: true });
    expect(stream.headers.get("x-gateway-cache")).toBe("HIT");
    const chunks = sseJson(await stream.text());
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join("")).toBe("Hello");
    const q2 = fresh();
    h.up.enqueue({ text: ["Bon", "jour"], usage: { input: 9, output: 2 } });
    await (await chat(q2, ON, { stream: true, stream_options: { include_usage: true } })).text();
    const json = await chat(q2, ON);
    expect(json.headers.get("x-gateway-cache")).toBe("HIT");
    expect(((await json.json()) as any).choices[0].message.content).toBe("Bonjour");
    expect(h.up.requests.length).toBe(2);
  });

  test("user, metadata and session_id do not change the key; a sampling parameter does", async () => {
    const q = fresh();
    await chat(q, ON, { user: "alice", metadata: { run: "1" } });
    expect((await chat(q, ON, { user: "bob", session_id: "s-2", metadata: { run: "2" } })).headers.get("x-gateway-cache")).toBe("HIT");
    expect((await chat(q, ON, { temperature: 0.5 })).headers.get("x-gateway-cache")).toBe("MISS");
    expect(h.up.requests.length).toBe(2);
  });
});

describe("the record of a hit", () => {
  test("/generation, the listing and the OpenRouter fields: cost 0, the kept tokens, cache_status hit and its source", async () => {
    const own = await createInferenceKey(h.gw);
    const q = fresh();
    h.up.enqueue({ text: "Kept.", usage: { input: 20, output: 4, cached: 5 } });
    const miss = await chat(q, ON, {}, own.key);
    const hit = await chat(q, ON, {}, own.key);
    const missId = miss.headers.get("x-generation-id")!;
    const hitId = hit.headers.get("x-generation-id")!;
    const record = await generation(h, hitId);
    expect(record).toMatchObject({
      id: hitId,
      total_cost: 0,
      usage: 0,
      tokens_prompt: 20,
      tokens_completion: 4,
      native_tokens_cached: 5,
      model: "t/chat",
      provider_name: "chat-up",
      provider_responses: [],
      finish_reason: "stop",
      cache_status: "hit",
      response_cache_source_id: missId,
      streamed: false,
      cancelled: false,
    });
    expect(await generation(h, missId)).toMatchObject({ cache_status: "miss", response_cache_source_id: null, provider_responses: [{ status: 200 }] });
    const listed = ((await (await h.gw.api(`/api/v1/generations?api_key_hash=${own.hash}`)).json()) as any).data;
    expect(listed.map((g: any) => [g.id, g.cache_status, g.total_cost])).toEqual([
      [hitId, "hit", 0],
      [missId, "miss", expect.any(Number)],
    ]);
  });

  test("a hit reserves nothing and leaves no reservation; a key past its limit still gets it (it costs nothing)", async () => {
    const { key, hash } = await createInferenceKey(h.gw, { limit: 100 });
    const q = fresh();
    h.up.enqueue({ text: "Small.", usage: { input: 10, output: 2 } });
    expect((await chat(q, ON, {}, key)).status).toBe(200);
    expect(await h.gw.ctx.store.reservations.openCount()).toBe(0);
    expect((await h.gw.api(`/api/v1/keys/${hash}`, { method: "PATCH", json: { limit: 0.000001 } })).status).toBe(200);
    await Bun.sleep(1_100); // the key's read cache lives 1 s
    expect((await chat(fresh(), ON, {}, key)).status).toBe(402);
    const hit = await chat(q, ON, {}, key);
    expect(hit.status).toBe(200);
    expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
    expect(await h.gw.ctx.store.reservations.openCount()).toBe(0);
    expect(await keyUsage(h, key)).toBeCloseTo(10 * 0.000001 + 2 * 0.000002, 12);
  });

  test("a hit counts against the key's rpm like any request", async () => {
    const { key } = await createInferenceKey(h.gw, { rate_limit: { rpm: 2 } });
    const q = fresh();
    expect((await chat(q, ON, {}, key)).headers.get("x-gateway-cache")).toBe("MISS");
    expect((await chat(q, ON, {}, key)).headers.get("x-gateway-cache")).toBe("HIT");
    expect((await chat(q, ON, {}, key)).status).toBe(429);
    expect(h.up.requests.length).toBe(1);
  });

  test("a hit's tokens, which no upstream processed, do not count against the key's tpm", async () => {
    const { key } = await createInferenceKey(h.gw, { rate_limit: { tpm: 100 } });
    const q = fresh();
    h.up.enqueue({ text: "Counted once.", usage: { input: 50, output: 10 } });
    expect((await chat(q, ON, {}, key)).headers.get("x-gateway-cache")).toBe("MISS");
    for (let i = 0; i < 3; i++) {
      const hit = await chat(q, ON, {}, key);
      expect(hit.status).toBe(200);
      expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
    }
  });
});

describe("what is kept", () => {
  test("entries expire ttl_seconds after they were stored; the purge removes them", async () => {
    const q = fresh();
    h.up.enqueue({ text: "one" }, { text: "two" });
    await chat(q, ON);
    offsetMs = 59_000;
    expect((await chat(q, ON)).headers.get("x-gateway-cache")).toBe("HIT");
    const { store } = h.gw.ctx;
    const before = await store.responseCache.stats(clock());
    offsetMs = 60_000;
    expect((await store.responseCache.stats(clock())).entries).toBeLessThan(before.entries);
    expect(await store.responseCache.purgeExpired(clock())).toBeGreaterThanOrEqual(1);
    const expired = await chat(q, ON);
    expect(expired.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await expired.json()) as any).choices[0].message.content).toBe("two");
    expect(h.up.requests.length).toBe(2);
  });

  test("an answer whose stored form exceeds max_entry_bytes is answered and not kept", async () => {
    const q = fresh();
    h.up.enqueue({ text: "x".repeat(700) }, { text: "x".repeat(700) });
    expect((await chat(q, ON)).status).toBe(200);
    const again = await chat(q, ON);
    expect(again.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await again.json()) as any).choices[0].message.content).toBe("x".repeat(700));
    expect(h.up.requests.length).toBe(2);
  });

  test("an error is never kept", async () => {
    const q = fresh();
    h.up.enqueue({ status: 500 }, { text: "recovered" });
    const failed = await chat(q, ON);
    expect(failed.status).toBe(502);
    expect(failed.headers.get("x-gateway-cache")).toBeNull();
    expect((await chat(q, ON)).headers.get("x-gateway-cache")).toBe("MISS");
    expect((await chat(q, ON)).headers.get("x-gateway-cache")).toBe("HIT");
    expect(h.up.requests.length).toBe(2);
  });

  test("a stream the upstream ends with an error event, or cuts, is never kept", async () => {
    for (const turn of [{ streamError: { afterEvents: 2 } }, { failAfterEvents: 2 }]) {
      h.up.reset();
      const q = fresh();
      h.up.enqueue({ text: ["a", "b", "c", "d"], ...turn }, { text: "whole" });
      const cut = await chat(q, ON, { stream: true });
      expect(cut.headers.get("x-gateway-cache")).toBe("MISS");
      expect(await cut.text()).toContain('"error"');
      const again = await chat(q, ON);
      expect(again.headers.get("x-gateway-cache")).toBe("MISS");
      expect(((await again.json()) as any).choices[0].message.content).toBe("whole");
      expect(h.up.requests.length).toBe(2);
    }
  });

  test("a stream the client leaves is never kept", async () => {
    const { key, hash } = await createInferenceKey(h.gw);
    const q = fresh();
    h.up.enqueue({ text: ["one ", "two ", "three ", "four"], chunkDelayMs: 150 }, { text: "whole" });
    const res = await chat(q, ON, { stream: true }, key);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    // the cancelled generation is recorded (nobody waits for it): ask again only once it is
    const cancelled = async () => ((await (await h.gw.api(`/api/v1/generations?api_key_hash=${hash}&status=cancelled`)).json()) as any).data.length;
    for (let i = 0; i < 100 && (await cancelled()) === 0; i++) await Bun.sleep(20);
    expect(await cancelled()).toBe(1);
    const again = await chat(q, ON, {}, key);
    expect(again.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await again.json()) as any).choices[0].message.content).toBe("whole");
  });
});

describe("workspaces", () => {
  test("keys of one workspace share entries; another workspace never meets them", async () => {
    const other = ((await (await h.gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Other", slug: "other-cache" } })).json()) as any).data;
    const sibling = await createInferenceKey(h.gw);
    const stranger = await createInferenceKey(h.gw, { workspace_id: other.id });
    const q = fresh();
    h.up.enqueue({ text: "ours" }, { text: "theirs" });
    await chat(q, ON);
    const shared = await chat(q, ON, {}, sibling.key);
    expect(shared.headers.get("x-gateway-cache")).toBe("HIT");
    const foreign = await chat(q, ON, {}, stranger.key);
    expect(foreign.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await foreign.json()) as any).choices[0].message.content).toBe("theirs");
    expect(h.up.requests.length).toBe(2);
    // DELETE /api/v1/cache?workspace_id= empties one workspace's entries only
    expect((await h.gw.api("/api/v1/cache?workspace_id=other-cache", { method: "DELETE" })).status).toBe(200);
    expect((await chat(q, ON, {}, sibling.key)).headers.get("x-gateway-cache")).toBe("HIT");
    expect((await chat(q, ON, {}, stranger.key)).headers.get("x-gateway-cache")).toBe("MISS");
  });
});

describe("operator", () => {
  test("DELETE /api/v1/cache: management key only; {deleted: N}, expired entries included; 404 for an unknown workspace", async () => {
    expect((await h.gw.api("/api/v1/cache", { method: "DELETE", key: h.key })).status).toBe(403);
    expect((await h.gw.api("/api/v1/cache", { method: "DELETE", key: null })).status).toBe(401);
    const unknown = await h.gw.api("/api/v1/cache?workspace_id=nowhere", { method: "DELETE" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.message).toBe("Workspace not found: workspace_id 'nowhere'");
    await h.gw.api("/api/v1/cache", { method: "DELETE" });
    const q1 = fresh();
    const q2 = fresh();
    await chat(q1, ON);
    await chat(q2, ON);
    offsetMs = 61_000;
    const res = await h.gw.api("/api/v1/cache", { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 2 });
    offsetMs = 0;
    expect((await chat(q1, ON)).headers.get("x-gateway-cache")).toBe("MISS");
  });

  test("metrics: one count per answer as its header says, and the entries and their bytes", async () => {
    await h.gw.api("/api/v1/cache", { method: "DELETE" });
    const scrape = async () => (await (await fetch(`${h.gw.url}/metrics`)).text()).split("\n");
    const count = (lines: string[], result: string) =>
      Number(lines.find((l) => l.startsWith(`gateway_response_cache_requests_total{result="${result}"}`))?.split(" ")[1] ?? 0);
    const before = await scrape();
    const q = fresh();
    h.up.enqueue({ text: "metric" });
    await chat(q, ON);
    await chat(q, ON);
    await chat(q, ON);
    await chat(q, {});
    await chat(fresh(), { "x-gateway-cache": "bogus" });
    const after = await scrape();
    expect(count(after, "miss") - count(before, "miss")).toBe(1);
    expect(count(after, "hit") - count(before, "hit")).toBe(2);
    expect(count(after, "bypass") - count(before, "bypass")).toBe(1);
    const entry = await h.gw.ctx.store.responseCache.stats(clock());
    expect(entry.entries).toBe(1);
    expect(after).toContain("gateway_response_cache_entries 1");
    expect(after).toContain(`gateway_response_cache_bytes ${entry.bytes}`);
  });
});
