// The response cache of two instances on one PostgreSQL + Redis: entries live in the database
// every instance shares, so B serves what A kept, and DELETE /api/v1/cache on one empties it for both.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { type Cluster, describeCluster, startCluster } from "./cluster";

let up: MockUpstream;
let cluster: Cluster;

const yaml = (url: string) => `providers:
  - { slug: good, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: t/cached
    endpoints: [{ provider: good, model: ok, pricing: { prompt: "0.000001", completion: "0.000002" } }]
response_cache:
  enabled: true
  default: on
`;

describeCluster("response cache on two instances (PostgreSQL + Redis)", () => {
  beforeAll(async () => {
    up = await startMockUpstream();
    cluster = await startCluster(yaml(up.url));
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    up?.stop();
  });

  test("B serves a hit for what A kept, streamed or not; a DELETE on B empties it for A", async () => {
    const res = await cluster.a.api("/api/v1/keys", { method: "POST", json: { name: "cache" } });
    const { key } = (await res.json()) as { key: string };
    const body = { model: "t/cached", messages: [{ role: "user", content: "shared question" }] };
    up.enqueue({ text: "kept by A", usage: { input: 8, output: 3 } }, { text: "after the delete" });
    const chat = (target: Cluster["a"], extra: Record<string, unknown> = {}) =>
      target.api("/api/v1/chat/completions", { method: "POST", key, json: { ...body, ...extra } });
    const miss = await chat(cluster.a);
    expect(miss.headers.get("x-gateway-cache")).toBe("MISS");
    const hit = await chat(cluster.b);
    expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
    expect(((await hit.json()) as any).choices[0].message.content).toBe("kept by A");
    const streamed = await chat(cluster.b, { stream: true });
    expect(streamed.headers.get("x-gateway-cache")).toBe("HIT");
    expect(await streamed.text()).toContain("kept by A");
    expect(up.requests.length).toBe(1);
    const gen = ((await (await cluster.a.api(`/api/v1/generation?id=${hit.headers.get("x-generation-id")}`)).json()) as any).data;
    expect(gen).toMatchObject({ cache_status: "hit", total_cost: 0, response_cache_source_id: miss.headers.get("x-generation-id") });
    const cleared = await cluster.b.api("/api/v1/cache", { method: "DELETE" });
    expect(await cleared.json()).toEqual({ deleted: 1 });
    const after = await chat(cluster.a);
    expect(after.headers.get("x-gateway-cache")).toBe("MISS");
    expect(((await after.json()) as any).choices[0].message.content).toBe("after the delete");
  });
});
