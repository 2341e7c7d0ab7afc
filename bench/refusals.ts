// What logging refused requests costs: the gateway in this process, its refusal log on (the
// recorder batches rows after the answers) and off (add() does nothing), in interleaved rounds.
// A: refused requests alone (a wrong key and a spent key, in turn). B: served requests while a
// flood of refused ones runs beside them (a flood keeps 20 rows a second per key and status; every
// refusal is counted). C: one batch of 500 rows written. Not a test: exit 0.
//
//   bun bench/refusals.ts        BENCH_ROUNDS (5), BENCH_REQUESTS (2000), BENCH_CONCURRENCY (8)
import { refusalCounters } from "../src/store/refusal-counts";
import { createInferenceKey } from "../test/support/gateway";
import { startGatewayAndUpstream } from "../test/support/gateway-and-upstream";
import { percentile } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const h = await startGatewayAndUpstream({
  yaml: (url) => `
providers: [{ slug: pa, api: openai-chat, base_url: "${url}", api_key: k }]
models:
  - id: t/ok
    endpoints: [{ provider: pa, model: up-a, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`,
});
h.up.setHandler(() => ({ text: "ok", usage: { input: 10, output: 4 } }));
const spent = await createInferenceKey(h.gw, { name: "spent", limit: 0 });
const body = JSON.stringify({ model: "t/ok", messages: [{ role: "user", content: "hi" }] });
const call = (key: string) => ({ key });
const send = async (c: { key: string }) => {
  const res = await fetch(`${h.gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${c.key}`, "content-type": "application/json" },
    body,
  });
  await res.arrayBuffer();
  return res.status;
};

async function loop(calls: Array<{ key: string }>, n: number, concurrency: number, expect: number[]): Promise<number[]> {
  const latencies: number[] = [];
  let issued = 0;
  const worker = async () => {
    while (issued < n) {
      const c = calls[issued++ % calls.length]!;
      const t0 = performance.now();
      const status = await send(c);
      latencies.push(performance.now() - t0);
      if (!expect.includes(status)) throw new Error(`unexpected status ${status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

const recorder = h.gw.ctx.refusals;
const realAdd = recorder.add.bind(recorder);
const setLog = (on: boolean) => {
  recorder.add = on ? realAdd : () => {};
};
const refused = [call("sk-gw-v1-wrong-key"), call(spent.key)];
const served = [call(h.key)];
const results: Record<string, { a: number[]; b: number[]; aWall: number }> = { on: { a: [], b: [], aWall: 0 }, off: { a: [], b: [], aWall: 0 } };

// warm-up
setLog(true);
await loop(refused, 500, CONCURRENCY, [401, 402]);
await loop(served, 500, CONCURRENCY, [200]);
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of round % 2 === 0 ? ["on", "off"] : ["off", "on"]) {
    setLog(mode === "on");
    const t0 = performance.now();
    results[mode]!.a.push(...(await loop(refused, REQUESTS, CONCURRENCY, [401, 402])));
    results[mode]!.aWall += performance.now() - t0;
    const [servedLatencies] = await Promise.all([loop(served, REQUESTS / 2, CONCURRENCY / 2, [200]), loop(refused, REQUESTS, CONCURRENCY / 2, [401, 402])]);
    results[mode]!.b.push(...servedLatencies);
    await recorder.settled();
  }
}
setLog(true);

const batch = Array.from({ length: 500 }, (_, i) => ({
  id: `bench-${i}-${Date.now()}`,
  createdAt: Date.now(),
  status: 429,
  errorCode: "rate_limited",
  reason: "bench",
  method: "POST",
  route: "/api/v1/chat/completions",
  model: "t/ok",
  keyHash: spent.hash,
  workspaceId: null,
  userId: null,
}));
const t0 = performance.now();
await h.gw.ctx.store.refusals.record(batch, refusalCounters(batch));
const batchMs = performance.now() - t0;
const logged = (await h.gw.ctx.store.refusals.counts({ fromHour: 0, toHour: Date.now() + 3_600_000 })).reduce((n, c) => n + c.requests, 0);

const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(2)} ms, p99 ${percentile(xs, 99).toFixed(2)} ms`;
console.log(`refusal log: ${ROUNDS} rounds, ${REQUESTS} refused requests per round and mode, concurrency ${CONCURRENCY}`);
for (const mode of ["off", "on"] as const) {
  const r = results[mode]!;
  console.log(
    `  log ${mode.padEnd(3)}  A refused alone: ${fmt(r.a)}, ${((r.a.length / r.aWall) * 1000).toFixed(0)} req/s   B served beside a flood: ${fmt(r.b)}`,
  );
}
console.log(`  C one batch of 500 rows and their counters: ${batchMs.toFixed(1)} ms; ${logged} refusals counted in all`);
await h.close();
