// Two instances on one PostgreSQL + Redis: keys, cache invalidation, circuits and spending
// limits hold across them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { type Cluster, describeCluster, startCluster } from "./cluster";

let up: MockUpstream;
let cluster: Cluster;

const yaml = (url: string) => `providers:
  - { slug: good, api: openai-chat, base_url: "${url}", api_key: k }
  - { slug: bad, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: t/priced
    endpoints: [{ provider: good, model: ok, pricing: { prompt: "0.0001", completion: "0.001" }, max_completion_tokens: 40 }]
  - id: t/circuit
    endpoints:
      - { provider: bad, model: fails, pricing: { prompt: "0.000001", completion: "0.000001" } }
      - { provider: good, model: ok, pricing: { prompt: "0.000001", completion: "0.000001" } }
`;

async function createKey(body: Record<string, unknown> = {}): Promise<{ key: string; hash: string }> {
  const res = await cluster.a.api("/api/v1/keys", { method: "POST", json: { name: "cluster", ...body } });
  const json = (await res.json()) as { key: string; data: { hash: string } };
  return { key: json.key, hash: json.data.hash };
}

const chat = (target: Cluster["a"], key: string, body: Record<string, unknown>) =>
  target.api("/api/v1/chat/completions", { method: "POST", key, json: { messages: [{ role: "user", content: "hi" }], ...body } });

describeCluster("two instances on PostgreSQL + Redis", () => {
  beforeAll(async () => {
    up = await startMockUpstream();
    up.setHandler((req) => (req.body.model === "fails" ? { status: 500 } : { text: "Hello from mock", usage: { input: 10, output: 40 }, delayMs: 20 }));
    cluster = await startCluster(yaml(up.url), { GATEWAY_CIRCUIT_FAILURES: "2", GATEWAY_CIRCUIT_COOLDOWN_MS: "600000" });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    up?.stop();
  });

  test("a key made on A serves on B", async () => {
    const { key } = await createKey();
    const res = await chat(cluster.b, key, { model: "t/priced" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).choices[0].message.content).toBe("Hello from mock");
  });

  test("a key disabled on A is refused on B within 100 ms", async () => {
    const { key, hash } = await createKey();
    // B has the key in its read cache (1 s lifetime) before A disables it
    expect((await cluster.b.api("/api/v1/key", { key })).status).toBe(200);
    expect((await cluster.a.api(`/api/v1/keys/${hash}`, { method: "PATCH", json: { disabled: true } })).status).toBe(200);
    const disabledAt = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - disabledAt < 1_000) status = (await cluster.b.api("/api/v1/key", { key })).status;
    const elapsed = performance.now() - disabledAt;
    console.log(`key disabled on A refused on B after ${elapsed.toFixed(1)} ms`);
    expect(status).toBe(401);
    expect(elapsed).toBeLessThan(100);
  });

  test("a circuit opened by failures on A is open on B", async () => {
    const { key } = await createKey();
    const failing = () => up.requests.filter((r) => r.body.model === "fails").length;
    const before = failing();
    const prefs = { model: "t/circuit", provider: { order: ["bad", "good"] } };
    for (let i = 0; i < 2; i++) expect((await chat(cluster.a, key, prefs)).status).toBe(200);
    expect(failing() - before).toBe(2);
    await Bun.sleep(50);
    const res = await chat(cluster.b, key, prefs);
    expect(res.status).toBe(200);
    // B put the open endpoint last, so the good one served at once
    expect(failing() - before).toBe(2);
    const id = res.headers.get("x-generation-id")!;
    const gen = ((await (await cluster.b.api(`/api/v1/generation?id=${id}`)).json()) as any).data;
    expect(gen.provider_name).toBe("good");
  });

  test("2 x 100 parallel requests split across both instances never spend past a $1 limit (20 rounds)", async () => {
    const rounds: string[] = [];
    for (let round = 0; round < 20; round++) {
      const { key, hash } = await createKey({ limit: 1 });
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          chat(i % 2 ? cluster.a : cluster.b, key, { model: "t/priced", max_tokens: 40 }).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      );
      const ok = statuses.filter((s) => s === 200).length;
      expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
      const [spent] = await cluster.sql`select coalesce(sum(cost_nanos), 0)::bigint as n, count(*)::int as c from generations where key_hash = ${hash}`;
      const [usage] = await cluster.sql`select total, held from key_usage where hash = ${hash}`;
      expect(Number(spent.n)).toBeLessThanOrEqual(1e9);
      expect(Number(usage.total)).toBe(Number(spent.n));
      expect(Number(usage.held)).toBe(0);
      expect(spent.c).toBe(ok);
      rounds.push(`${ok}/${Number(spent.n) / 1e9}`);
    }
    console.log(`limit race (admitted/spent USD per round): ${rounds.join(" ")}`);
  }, 120_000);
});
