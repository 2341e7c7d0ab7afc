// Gateway goals benchmark (not a test; loopback only). See bench/README.md.
//
// One mock upstream; targets: the upstream directly, a bare Bun pass-through proxy (the
// floor), the gateway (same-format, translated to Anthropic and to Gemini; json, 50-chunk streams, and a mixed
// load), the response cache (a hit, a miss and the same request with the cache disabled, in a
// gateway of their own), optionally a baseline checkout's gateway and the Portkey gateway (Node). Every
// server runs in its own child process; this process only generates load and measures.
// Each round starts a fresh floor and gateway for idle memory, then runs batches of every
// target interleaved round-robin, so machine noise hits every target alike. It prints
// every goal with its value, the ratio to the floor, the spread across rounds and
// PASS/FAIL, and always exits 0 once it could run.
import { join } from "node:path";
import { type Child, type CpuSample, spawnChild } from "./lib/child";
import { prepareColdStart } from "./lib/cold-start";
import { envInt, envNumber } from "./lib/env";
import { fetchText, type RequestSpec, runBatch, runFor } from "./lib/load";
import { machineLine } from "./lib/machine";
import { readMemory, settledRss } from "./lib/memory";
import { AZURE_MODEL, BEDROCK_MODEL, chatBody, GEMINI_MODEL, newPromptBody, SAME_FORMAT_MODEL, TRANSLATED_MODEL, UPSTREAM_MODEL } from "./lib/models";
import { type Portkey, portkeyHeaders, startPortkey } from "./lib/portkey";
import { REPLY_END, REPLY_START, STREAM_CHUNK_COUNT } from "./lib/reply";
import {
  AZURE,
  BEDROCK,
  CACHE_DISABLED,
  CACHE_HIT,
  CACHE_MISS,
  FLOOR,
  type MemoryFigures,
  type Mode,
  PORTKEY,
  printBaseline,
  printGoals,
  printSoak,
  printTable,
  type Row,
  SAME,
  type SoakSample,
  TRANSLATED,
  TRANSLATED_GEMINI,
  type View,
} from "./lib/report";
import { median, RoundAccumulator, type Summary } from "./lib/stats";
import { threadCpuMs } from "./lib/thread-cpu";

// BENCH_STREAMS=1: the many-long-streams case instead (streams.ts), which runs and reports on its own
if (["1", "true", "yes"].includes((process.env.BENCH_STREAMS ?? "").toLowerCase())) {
  await import("./streams");
  process.exit(0);
}

const ROUNDS = envInt("BENCH_ROUNDS", 5);
const REQUESTS = envInt("BENCH_REQUESTS", 2000); // per target, mode and round, at CONCURRENCY
const TTFB_REQUESTS = envInt("BENCH_TTFB_REQUESTS", 400); // per stream target and round, at concurrency 1
const BATCH = envInt("BENCH_BATCH", 200);
const WARMUP = envInt("BENCH_WARMUP", 300); // per target and mode
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 16);
const SETTLE_MS = envInt("BENCH_SETTLE_MS", 10); // lets a child finish post-response work before its CPU is read
const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 0) || 0;
const SOAK_SAMPLE_S = envNumber("BENCH_SOAK_SAMPLE_SECONDS", 30);
const WITH_PORTKEY = ["1", "true", "yes"].includes((process.env.BENCH_PORTKEY ?? "").toLowerCase());
const GATEWAY_BUN_ARGS = (process.env.BENCH_GATEWAY_BUN_ARGS ?? "").split(" ").filter(Boolean);
/** a checkout of another commit (with node_modules): its gateway runs beside this one, interleaved, for a before/after figure */
const BASELINE = process.env.BENCH_BASELINE;
/** USD limit of the bench key (reservations on); "off" or 0: no limit. Passed to the baseline's gateway too. */
const KEY_LIMIT = process.env.BENCH_KEY_LIMIT ?? "1000";
/** also run minimal-gateway.entry.ts: the least work that keeps the gateway's promises, as a reference for the goals */
const WITH_MINIMAL = ["1", "true", "yes"].includes((process.env.BENCH_MINIMAL ?? "").toLowerCase());
/** a comma list: only the targets whose name contains one of these run (the floor always does), e.g. `cache` */
const ONLY = (process.env.BENCH_TARGETS ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);

type GatewayInfo = { url: string; key: string; limit?: number | null };
type Target = {
  name: string;
  mode: Mode;
  concurrency: number;
  perRound: number;
  specs: RequestSpec[];
  child: Child<unknown> | null;
  acc: RoundAccumulator;
  /** run before each of its batches, outside the CPU reading (the cache gateway's switch) */
  before?: () => Promise<unknown>;
};

function check(target: Target, spec: RequestSpec, text: string): void {
  const ok = spec.stream ? text.includes(REPLY_END) && text.includes("[DONE]") : text.includes(REPLY_START) && text.includes(REPLY_END);
  if (!ok || !text.includes("usage")) throw new Error(`${target.name} ${target.mode}: unexpected response: ${text.slice(0, 400)}`);
}

const cpuUs = (s: CpuSample) => s.user + s.system;
const here = import.meta.dir;
const started = performance.now();

const upstream = await spawnChild<{ url: string }>(join(here, "upstream.entry.ts"));
const childEnv = { BENCH_UPSTREAM_URL: upstream.info.url, BENCH_KEY_LIMIT: KEY_LIMIT };
const cacheEnv = { ...childEnv, BENCH_RESPONSE_CACHE: "1" };
const [floor, gateway, cacheGateway, baseline, baselineCache, minimal] = await Promise.all([
  spawnChild<{ url: string }>(join(here, "floor-proxy.entry.ts"), childEnv),
  spawnChild<GatewayInfo>(join(here, "gateway.entry.ts"), childEnv, GATEWAY_BUN_ARGS),
  // the response cache's rows: the cache on (`default: off`), switched off for the disabled row
  spawnChild<GatewayInfo>(join(here, "gateway.entry.ts"), cacheEnv, GATEWAY_BUN_ARGS),
  // the baseline keeps its own database defaults: SQLite in a temporary directory
  BASELINE ? spawnChild<GatewayInfo>(join(BASELINE, "bench/gateway.entry.ts"), childEnv) : Promise.resolve(null),
  BASELINE ? spawnChild<GatewayInfo>(join(BASELINE, "bench/gateway.entry.ts"), cacheEnv) : Promise.resolve(null),
  WITH_MINIMAL ? spawnChild<GatewayInfo>(join(here, "minimal-gateway.entry.ts"), childEnv) : Promise.resolve(null),
]);
let portkey: Portkey | null = null;
let portkeyNote = "";
if (WITH_PORTKEY) {
  try {
    portkey = await startPortkey();
  } catch (err) {
    portkeyNote = `Portkey not run: ${(err as Error).message}`;
  }
}
const children = [
  upstream,
  floor,
  gateway,
  cacheGateway,
  ...(baseline ? [baseline] : []),
  ...(baselineCache ? [baselineCache] : []),
  ...(minimal ? [minimal] : []),
  ...(portkey ? [portkey.child] : []),
];
const measured = children.filter((c) => c !== upstream);
/** CPU of a child's JavaScript compiler threads: still high during the rounds means the warm-up was too short for the figures to be steady */
const jitMs = (child: Child<unknown>) => threadCpuMs(child.proc.pid).get("JITWorker") ?? 0;
const childName = new Map<Child<unknown>, string>([
  [floor, "floor"],
  [gateway, "gateway"],
  [cacheGateway, "cache gw"],
  ...(baseline ? [[baseline, "baseline"] as const] : []),
  ...(baselineCache ? [[baselineCache, "baseline cache gw"] as const] : []),
  ...(minimal ? [[minimal, "minimal"] as const] : []),
  ...(portkey ? [[portkey.child, "portkey"] as const] : []),
]);

/**
 * RSS of a fresh floor and a fresh gateway (default catalog, no request), once start-up has
 * settled; and of one with a job worker, as `bun start` runs it (WORKERS defaults to 1), which
 * the goal row does not take (the measured gateway runs none unless BENCH_WORKERS says so).
 */
async function idleMemory(): Promise<{ floor: number | null; gateway: number | null; withWorker: number | null }> {
  const idleGateway = (workers: string | undefined) =>
    spawnChild<{ url: string }>(
      join(here, "gateway.entry.ts"),
      { ...childEnv, BENCH_GATEWAY_IDLE: "1", ...(workers === undefined ? {} : { BENCH_WORKERS: workers }) },
      GATEWAY_BUN_ARGS,
    );
  const [f, g, w] = await Promise.all([spawnChild<{ url: string }>(join(here, "floor-proxy.entry.ts"), childEnv), idleGateway(undefined), idleGateway("1")]);
  try {
    const [floorMb, gatewayMb, withWorkerMb] = await Promise.all([settledRss(f.proc.pid), settledRss(g.proc.pid), settledRss(w.proc.pid)]);
    return { floor: floorMb, gateway: gatewayMb, withWorker: withWorkerMb };
  } finally {
    await Promise.all([f.stop(), g.stop(), w.stop()]);
  }
}

try {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${gateway.info.key}` };
  const spec = (url: string, model: string, stream: boolean, h = headers): RequestSpec => ({ url, headers: h, body: chatBody(model, stream), stream });
  const gatewaySpec = (g: Child<GatewayInfo>, model: string, stream: boolean) =>
    spec(`${g.info.url}/api/v1/chat/completions`, model, stream, { ...headers, authorization: `Bearer ${g.info.key}` });
  const targets: Target[] = [];
  const add = (name: string, mode: Mode, child: Child<unknown> | null, specs: RequestSpec[], before?: () => Promise<unknown>) => {
    const unloaded = mode === "stream c=1";
    targets.push({
      name,
      mode,
      child,
      specs,
      before,
      concurrency: unloaded ? 1 : CONCURRENCY,
      perRound: unloaded ? TTFB_REQUESTS : REQUESTS,
      acc: new RoundAccumulator(),
    });
  };
  for (const mode of ["json", "stream", "stream c=1"] as const) {
    const stream = mode !== "json";
    add("direct upstream", mode, null, [spec(`${upstream.info.url}/chat/completions`, UPSTREAM_MODEL, stream)]);
    add(FLOOR, mode, floor, [spec(`${floor.info.url}/v1/chat/completions`, UPSTREAM_MODEL, stream)]);
    add(SAME, mode, gateway, [gatewaySpec(gateway, SAME_FORMAT_MODEL, stream)]);
    add(TRANSLATED, mode, gateway, [gatewaySpec(gateway, TRANSLATED_MODEL, stream)]);
    if (mode === "stream c=1") continue;
    add(AZURE, mode, gateway, [gatewaySpec(gateway, AZURE_MODEL, stream)]);
    add(BEDROCK, mode, gateway, [gatewaySpec(gateway, BEDROCK_MODEL, stream)]);
    add(TRANSLATED_GEMINI, mode, gateway, [gatewaySpec(gateway, GEMINI_MODEL, stream)]);
    if (baseline) {
      add("baseline same-format", mode, baseline, [gatewaySpec(baseline, SAME_FORMAT_MODEL, stream)]);
      add("baseline translated", mode, baseline, [gatewaySpec(baseline, TRANSLATED_MODEL, stream)]);
      // the native APIs too, for a before/after of their rows (a baseline without them answers 4xx and stops the run at the check)
      add("baseline azure-openai", mode, baseline, [gatewaySpec(baseline, AZURE_MODEL, stream)]);
      add("baseline bedrock", mode, baseline, [gatewaySpec(baseline, BEDROCK_MODEL, stream)]);
      add("baseline translated (gemini)", mode, baseline, [gatewaySpec(baseline, GEMINI_MODEL, stream)]);
    }
    if (minimal) add("minimal gateway", mode, minimal, [gatewaySpec(minimal, SAME_FORMAT_MODEL, stream)]);
    if (portkey)
      add(PORTKEY, mode, portkey.child, [spec(`${portkey.child.info.url}/v1/chat/completions`, UPSTREAM_MODEL, stream, portkeyHeaders(upstream.info.url))]);
  }
  // the response cache, json, same format: a hit (the same request every time), a miss (a prompt
  // never asked before, looked up and kept) and that request with the cache switched off
  const addCacheRows = (prefix: string, g: Child<GatewayInfo>) => {
    const cached = (body: RequestSpec["body"]): RequestSpec => ({
      ...gatewaySpec(g, SAME_FORMAT_MODEL, false),
      body,
      headers: { ...headers, authorization: `Bearer ${g.info.key}`, "x-gateway-cache": "on" },
    });
    const on = () => g.control("/cache/on");
    add(`${prefix}${CACHE_HIT}`, "json", g, [cached(chatBody(SAME_FORMAT_MODEL, false))], on);
    add(`${prefix}${CACHE_MISS}`, "json", g, [cached(newPromptBody("miss"))], on);
    add(`${prefix}${CACHE_DISABLED}`, "json", g, [cached(newPromptBody("off"))], () => g.control("/cache/off"));
  };
  addCacheRows("", cacheGateway);
  if (baselineCache) addCacheRows("baseline ", baselineCache);
  // the memory figures' load: both paths, json and stream, in one batch
  const mixed = [false, true].flatMap((stream) => [gatewaySpec(gateway, SAME_FORMAT_MODEL, stream), gatewaySpec(gateway, TRANSLATED_MODEL, stream)]);
  add("gateway mixed", "mixed", gateway, mixed);
  if (ONLY.length > 0) {
    const chosen = targets.filter((t) => ONLY.some((o) => t.name.includes(o)));
    const kept = targets.filter((t) => chosen.includes(t) || (t.name === FLOOR && chosen.some((c) => c.mode === t.mode)));
    targets.splice(0, targets.length, ...kept);
  }

  const upstreamJson = await fetchText(targets[0]!.specs[0]!);
  const upstreamStream = await fetchText(spec(`${upstream.info.url}/chat/completions`, UPSTREAM_MODEL, true));
  for (const t of targets) {
    await t.before?.();
    for (const s of t.specs) check(t, s, await fetchText(s));
  }

  const subRounds = Math.ceil(REQUESTS / BATCH);
  console.log(
    `goals bench: ${ROUNDS} interleaved rounds; per round, target and mode ${REQUESTS} requests at concurrency ${CONCURRENCY} (batches of ${BATCH}) and ${TTFB_REQUESTS} streamed at concurrency 1; warm-up ${WARMUP}`,
  );
  console.log(machineLine(portkey ? [portkey.node] : []));
  console.log(
    `upstream: json answer ${upstreamJson.length} bytes, stream ${STREAM_CHUNK_COUNT} content chunks (${upstreamStream.match(/^data: /gm)?.length ?? 0} SSE events, ${upstreamStream.length} bytes); ` +
      `bench key limit ${gateway.info.limit ? `$${gateway.info.limit} (reservations on)` : "none (reservations off)"}; ` +
      `store ${process.env.BENCH_DATABASE_URL ? `PostgreSQL${process.env.BENCH_REDIS_URL ? " + Redis" : ""}` : "SQLite"}` +
      (portkey ? `; ${portkey.installed}` : ""),
  );
  if (portkeyNote) console.log(portkeyNote);
  // the release binary's cold start: built once here, started once per round while nothing else runs
  const coldStart = await prepareColdStart().catch((err: unknown) => {
    console.log(`cold start not measured: ${(err as Error).message}`);
    return null;
  });

  for (let done = 0; done < WARMUP; done += BATCH) {
    for (const t of targets) {
      await t.before?.();
      await runBatch(t.specs, Math.min(BATCH, WARMUP - done, t.perRound), t.concurrency);
    }
  }

  const cpuAtStart = new Map(await Promise.all(measured.map(async (c) => [c, cpuUs(await c.cpu())] as const)));
  const jitAtStart = new Map(measured.map((c) => [c, jitMs(c)] as const));
  const cpuInBatches = new Map<Child<unknown>, number>(measured.map((c) => [c, 0]));
  const roundMemory: MemoryFigures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const idle = await idleMemory();
    const coldStartMs = coldStart ? await coldStart.measure().catch(() => null) : null;
    for (let sub = 0; sub < subRounds; sub++) {
      // rotate the starting target every batch so no target always follows the same one
      const rotation = round * subRounds + sub;
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + rotation) % targets.length]!;
        const size = Math.floor(((sub + 1) * t.perRound) / subRounds) - Math.floor((sub * t.perRound) / subRounds);
        if (size === 0) continue;
        await t.before?.();
        const before = t.child ? cpuUs(await t.child.cpu()) : 0;
        const batch = await runBatch(t.specs, size, t.concurrency);
        let used: number | null = null;
        if (t.child) {
          await Bun.sleep(SETTLE_MS);
          used = cpuUs(await t.child.cpu()) - before;
          cpuInBatches.set(t.child, cpuInBatches.get(t.child)! + used);
        }
        t.acc.add(round, batch, used);
      }
    }
    roundMemory.push({
      coldStartMs,
      idleGateway: idle.gateway,
      idleWithWorker: idle.withWorker,
      idleFloor: idle.floor,
      peakGateway: readMemory(gateway.proc.pid)?.peakMb ?? null,
      peakFloor: readMemory(floor.proc.pid)?.peakMb ?? null,
    });
    console.log(`  round ${round + 1}/${ROUNDS} done (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }

  // CPU a child used outside its own batches, up to the end of the rounds (the soak is not in it)
  const cpuOutside = await Promise.all(
    measured.map(async (child) => {
      const total = cpuUs(await child.cpu()) - cpuAtStart.get(child)!;
      const jit = jitMs(child) - jitAtStart.get(child)!;
      return (
        `  ${childName.get(child)} CPU outside its own batches (idle/GC, not attributed): ${((total - cpuInBatches.get(child)!) / 1000).toFixed(1)} ms of ${(total / 1000).toFixed(1)} ms; ` +
        `compiling JavaScript (JITWorker threads, 10 ms ticks): ${jit} ms`
      );
    }),
  );

  let soak: SoakSample[] | null = null;
  if (SOAK_MINUTES > 0) {
    soak = [];
    console.log(`  soak: ${SOAK_MINUTES} min of mixed load on the gateway, RSS every ${SOAK_SAMPLE_S} s`);
    const totalMs = SOAK_MINUTES * 60_000;
    for (let elapsed = 0; elapsed < totalMs; ) {
      const ms = Math.min(SOAK_SAMPLE_S * 1000, totalMs - elapsed);
      const requests = await runFor(mixed, ms, CONCURRENCY);
      elapsed += ms;
      soak.push({ seconds: Math.round(elapsed / 1000), rssMb: readMemory(gateway.proc.pid)?.rssMb ?? NaN, rps: requests / (ms / 1000) });
    }
  }

  const rows: Row[] = targets.map((t) => ({
    target: t.name,
    mode: t.mode,
    concurrency: t.concurrency,
    summary: t.acc.all.summary(),
    rounds: t.acc.rounds.map((a) => a.summary()),
  }));
  const find = (list: Row[], pick: (r: Row) => Summary) => (target: string, mode: Mode) => {
    const row = list.find((r) => r.target === target && r.mode === mode);
    return row ? pick(row) : undefined;
  };
  const medianOf = (pick: (m: MemoryFigures) => number | null) => {
    const values = roundMemory.map(pick).filter((v): v is number => v !== null);
    return values.length ? median(values) : null;
  };
  const all: View = {
    get: find(rows, (r) => r.summary),
    memory: {
      idleGateway: medianOf((m) => m.idleGateway),
      idleWithWorker: medianOf((m) => m.idleWithWorker),
      idleFloor: medianOf((m) => m.idleFloor),
      peakGateway: readMemory(gateway.proc.pid)?.peakMb ?? null,
      peakFloor: readMemory(floor.proc.pid)?.peakMb ?? null,
      coldStartMs: medianOf((m) => m.coldStartMs),
    },
  };
  const perRound: View[] = roundMemory.map((memory, round) => ({ get: find(rows, (r) => r.rounds[round]!), memory }));

  console.log("");
  printTable(rows);
  console.log(
    "\nmemory (RSS from /proc, MB): idle = a fresh process, settled, before any request (median of rounds); now and peak (VmHWM) = the measured process at the end",
  );
  const mb = (v: number | null | undefined) => (v == null ? "—" : v.toFixed(1)).padStart(6);
  for (const c of measured) {
    const idle = c === floor ? all.memory.idleFloor : c === gateway ? all.memory.idleGateway : null;
    const m = readMemory(c.proc.pid);
    console.log(`  ${childName.get(c)!.padEnd(8)}  idle ${mb(idle)}  now ${mb(m?.rssMb)}  peak ${mb(m?.peakMb)}`);
  }
  console.log(`  gateway with one job worker, as bun start runs it: idle ${mb(all.memory.idleWithWorker)}`);

  console.log(
    `\ngoals (gateway vs the floor proxy, same run; ${CONCURRENCY} connections unless c=1; figures over all ${ROUNDS} rounds, spread = per-round min–max)`,
  );
  const failed = printGoals(all, perRound, soak, portkeyNote ? "not run: Portkey could not start (above)" : undefined);
  console.log(`${failed === 0 ? "all measured goals PASS" : `${failed} goal(s) FAIL`} (a benchmark: the exit code is 0 either way)`);
  if (soak) printSoak(soak);
  if (baseline) printBaseline(rows);
  console.log(["", ...cpuOutside].join("\n"));
  coldStart?.close();
  console.log(`\ntotal run time ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await Promise.all(children.map((c) => c.stop()));
}
