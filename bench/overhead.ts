// Gateway overhead benchmark (not a test; loopback only). See bench/README.md.
//
// Three targets on one mock upstream: the upstream directly, a bare Bun
// pass-through proxy (the floor) and the gateway (same-format and translated),
// each in non-streaming and streaming mode. Every server runs in its own child
// process; this process only generates load and measures. Batches are
// interleaved round-robin so machine noise hits every target alike.
import { join } from "node:path";
import { spawnChild, type Child, type CpuSample } from "./lib/child";
import { fetchText, runBatch, type RequestSpec } from "./lib/load";
import { SAME_FORMAT_MODEL, TRANSLATED_MODEL, UPSTREAM_MODEL } from "./lib/models";
import { printBaseline, printGoals, printTable, type Row } from "./lib/report";
import { Accumulator } from "./lib/stats";

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};
const REQUESTS = envInt("BENCH_REQUESTS", 3000); // measured requests per target and mode
const BATCH = envInt("BENCH_BATCH", 200);
const WARMUP = envInt("BENCH_WARMUP", 300); // per target and mode
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 8);
const SETTLE_MS = envInt("BENCH_SETTLE_MS", 10); // lets a child finish post-response work before its CPU is read
const GATEWAY_BUN_ARGS = (process.env.BENCH_GATEWAY_BUN_ARGS ?? "").split(" ").filter(Boolean);
/** a checkout of another commit (with node_modules): its gateway runs beside this one, interleaved, for a before/after figure */
const BASELINE = process.env.BENCH_BASELINE;

type Target = { name: string; mode: "json" | "stream"; spec: RequestSpec; child: Child<unknown> | null; acc: Accumulator };

function chatBody(model: string, stream: boolean): string {
  const body: Record<string, unknown> = { model, messages: [{ role: "user", content: "Say hello." }], max_tokens: 64 };
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  return JSON.stringify(body);
}

function check(target: Target, text: string): void {
  const ok = target.mode === "stream" ? text.includes("tok19") && text.includes("[DONE]") : text.includes("Hello from the bench upstream.");
  if (!ok || !text.includes("usage")) throw new Error(`${target.name} ${target.mode}: unexpected response: ${text.slice(0, 400)}`);
}

const cpuUs = (s: CpuSample) => s.user + s.system;

const started = performance.now();
const here = import.meta.dir;
const upstream = await spawnChild<{ url: string }>(join(here, "upstream.entry.ts"));
const childEnv = { BENCH_UPSTREAM_URL: upstream.info.url };
const [floor, gateway, baseline] = await Promise.all([
  spawnChild<{ url: string }>(join(here, "floor-proxy.entry.ts"), childEnv),
  spawnChild<{ url: string; key: string }>(join(here, "gateway.entry.ts"), childEnv, GATEWAY_BUN_ARGS),
  // the baseline keeps its own database defaults: SQLite in a temporary directory
  BASELINE ? spawnChild<{ url: string; key: string }>(join(BASELINE, "bench/gateway.entry.ts"), { BENCH_UPSTREAM_URL: upstream.info.url }) : Promise.resolve(null),
]);
const children = [upstream, floor, gateway, ...(baseline ? [baseline] : [])];
const measured = [floor, gateway, ...(baseline ? [baseline] : [])];

try {
  const headers = { "content-type": "application/json", authorization: `Bearer ${gateway.info.key}` };
  const targets: Target[] = [];
  for (const mode of ["json", "stream"] as const) {
    const stream = mode === "stream";
    const add = (name: string, url: string, model: string, child: Child<unknown> | null) =>
      targets.push({ name, mode, child, acc: new Accumulator(), spec: { url, headers, body: chatBody(model, stream), stream } });
    add("direct upstream", `${upstream.info.url}/chat/completions`, UPSTREAM_MODEL, null);
    add("floor proxy", `${floor.info.url}/v1/chat/completions`, UPSTREAM_MODEL, floor);
    add("gateway same-format", `${gateway.info.url}/api/v1/chat/completions`, SAME_FORMAT_MODEL, gateway);
    add("gateway translated", `${gateway.info.url}/api/v1/chat/completions`, TRANSLATED_MODEL, gateway);
    if (baseline) {
      const baselineHeaders = { ...headers, authorization: `Bearer ${baseline.info.key}` };
      targets.push({ name: "baseline same-format", mode, child: baseline, acc: new Accumulator(), spec: { url: `${baseline.info.url}/api/v1/chat/completions`, headers: baselineHeaders, body: chatBody(SAME_FORMAT_MODEL, stream), stream } });
      targets.push({ name: "baseline translated", mode, child: baseline, acc: new Accumulator(), spec: { url: `${baseline.info.url}/api/v1/chat/completions`, headers: baselineHeaders, body: chatBody(TRANSLATED_MODEL, stream), stream } });
    }
  }

  for (const t of targets) check(t, await fetchText(t.spec));
  for (let done = 0; done < WARMUP; done += BATCH) {
    for (const t of targets) await runBatch(t.spec, Math.min(BATCH, WARMUP - done), CONCURRENCY);
  }

  const cpuAtStart = new Map(await Promise.all(measured.map(async (c) => [c, cpuUs(await c.cpu())] as const)));
  const cpuInBatches = new Map<Child<unknown>, number>(measured.map((c) => [c, 0]));
  const rounds = Math.ceil(REQUESTS / BATCH);
  for (let round = 0; round < rounds; round++) {
    const size = Math.min(BATCH, REQUESTS - round * BATCH);
    // rotate the starting target each round so no target always follows the same one
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(i + round) % targets.length]!;
      const before = t.child ? cpuUs(await t.child.cpu()) : 0;
      const batch = await runBatch(t.spec, size, CONCURRENCY);
      let used: number | null = null;
      if (t.child) {
        await Bun.sleep(SETTLE_MS);
        used = cpuUs(await t.child.cpu()) - before;
        cpuInBatches.set(t.child, cpuInBatches.get(t.child)! + used);
      }
      t.acc.add(batch, used);
    }
  }

  const rows: Row[] = targets.map((t) => ({ target: t.name, mode: t.mode, summary: t.acc.summary() }));
  console.log(
    `overhead bench: ${REQUESTS} measured requests per target and mode (batches of ${BATCH}, ${rounds} interleaved rounds), ` +
      `concurrency ${CONCURRENCY}, warm-up ${WARMUP}; bun ${Bun.version}, ${navigator.hardwareConcurrency} cores\n`,
  );
  printTable(rows);
  printGoals(rows, "floor proxy", ["gateway same-format", "gateway translated"]);
  if (baseline) printBaseline(rows);
  for (const [child, name] of [[floor, "floor"], [gateway, "gateway"], ...(baseline ? [[baseline, "baseline"] as const] : [])] as const) {
    const total = cpuUs(await child.cpu()) - cpuAtStart.get(child)!;
    const outside = total - cpuInBatches.get(child)!;
    console.log(`  ${name} CPU outside its own batches (idle/GC, not attributed): ${(outside / 1000).toFixed(1)} ms of ${(total / 1000).toFixed(1)} ms`);
  }
  console.log(`\ntotal run time ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await Promise.all(children.map((c) => c.stop()));
}
