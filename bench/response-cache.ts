// The response cache's cost and gain: CPU per request of the gateway process and latency at
// concurrency 1, for the same Chat request (same-format upstream, JSON, about 1 KB of answer)
// through a gateway with the cache off, and through one with it on: a miss (X-Gateway-Cache: on,
// a prompt never asked before: key, look-up, the answer kept in the record's commit), a bypass
// (no header) and a hit (nothing upstream). The floor is a bare forwarding proxy. Interleaved
// rounds, so drift hits every target alike.
//
//   bun bench/response-cache.ts        (BENCH_REQUESTS per target and round, BENCH_ROUNDS)
import { type Child, spawnChild } from "./lib/child";
import { envInt } from "./lib/env";
import { SAME_FORMAT_MODEL } from "./lib/models";
import { median, percentile } from "./lib/stats";

const REQUESTS = envInt("BENCH_REQUESTS", 400);
const ROUNDS = envInt("BENCH_ROUNDS", 5);
const WARMUP = envInt("BENCH_WARMUP", 400);

type GatewayInfo = { url: string; key: string };
const upstream = await spawnChild<{ url: string }>("bench/upstream.entry.ts");
const env = { BENCH_UPSTREAM_URL: upstream.info.url, BENCH_KEY_LIMIT: "off" };
const [plain, cached, floor] = await Promise.all([
  spawnChild<GatewayInfo>("bench/gateway.entry.ts", env),
  spawnChild<GatewayInfo>("bench/gateway.entry.ts", { ...env, BENCH_RESPONSE_CACHE: "1" }),
  spawnChild<{ url: string }>("bench/floor-proxy.entry.ts", env),
]);

let asked = 0;
const body = (question: string, model = SAME_FORMAT_MODEL) => JSON.stringify({ model, messages: [{ role: "user", content: question }], max_tokens: 512 });

type Target = { name: string; child: Child<unknown>; send: () => Promise<void> };
const post = async (url: string, key: string | null, payload: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: payload,
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
};
const chatUrl = (g: Child<GatewayInfo>) => `${g.info.url}/api/v1/chat/completions`;
const HIT_QUESTION = "Say hello (kept).";
const targets: Target[] = [
  { name: "floor proxy", child: floor, send: () => post(`${floor.info.url}/v1/chat/completions`, "k", body(`floor ${++asked}`, "m-chat")) },
  { name: "cache off", child: plain, send: () => post(chatUrl(plain), plain.info.key, body(`off ${++asked}`)) },
  { name: "cache on, bypass", child: cached, send: () => post(chatUrl(cached), cached.info.key, body(`bypass ${++asked}`)) },
  {
    name: "cache on, miss",
    child: cached,
    send: () => post(chatUrl(cached), cached.info.key, body(`miss ${++asked}`), { "x-gateway-cache": "on" }),
  },
  { name: "cache on, hit", child: cached, send: () => post(chatUrl(cached), cached.info.key, body(HIT_QUESTION), { "x-gateway-cache": "on" }) },
];

const cpuMs = async (c: Child<unknown>) => {
  const s = await c.cpu();
  return (s.user + s.system) / 1000;
};

for (const t of targets) for (let i = 0; i < WARMUP; i++) await t.send();
const cpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
const latency = new Map<string, number[]>(targets.map((t) => [t.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const t of targets) {
    await Bun.sleep(20);
    const before = await cpuMs(t.child);
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      await t.send();
      latency.get(t.name)!.push(performance.now() - started);
    }
    await Bun.sleep(10); // the child's post-response work (the record's commit) is its request's
    cpu.get(t.name)!.push(((await cpuMs(t.child)) - before) / REQUESTS);
  }
}
const offCpu = median(cpu.get("cache off")!);
console.log(`${REQUESTS} requests x ${ROUNDS} rounds per target, concurrency 1, JSON, same-format chat upstream (loopback mock)`);
console.log("target                 CPU µs/req (median of rounds)   vs cache off   latency p50 / p99 ms");
for (const t of targets) {
  const c = median(cpu.get(t.name)!);
  const l = latency.get(t.name)!;
  console.log(
    `${t.name.padEnd(22)} ${(c * 1000).toFixed(0).padStart(8)}                     ${(((c - offCpu) / offCpu) * 100).toFixed(1).padStart(6)} %     ${percentile(l, 50).toFixed(3)} / ${percentile(l, 99).toFixed(3)}`,
  );
}
await Promise.all([plain.stop(), cached.stop(), floor.stop(), upstream.stop()]);
