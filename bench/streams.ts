// Many long streams at once (`BENCH_STREAMS=1 bun run bench`, or `bun bench/streams.ts`): N
// concurrent streamed chat completions through the floor proxy and through the gateway, with
// a key that has a spending limit and one without (two gateway processes), in the same run,
// against the same slow upstream (streams-upstream.entry.ts) and the same clients. Each round
// starts fresh processes, warms them, reads their idle RSS, then runs every N in ascending
// order, the targets in a rotating order, one at a time: the clients ramp up over one stream's
// length, then the plateau is measured (CPU per relayed event, RSS, event-loop delay, upstream
// streams open, time to first byte), then the clients stop restarting and the streams drain.
// See bench/README.md. A benchmark: it exits 0 whatever it measured.
import { join } from "node:path";
import { raiseOpenFileLimit } from "../src/process-limits/open-files";
import { relaunchWithUpstreamLimit } from "../src/process-limits/upstream-requests";
import { type Child, type CpuSample, type LoopDelay, spawnChild } from "./lib/child";
import { envInt } from "./lib/env";
import type { RequestSpec } from "./lib/load";
import { machineLine } from "./lib/machine";
import { readMemory, settledRss } from "./lib/memory";
import { chatBody, SAME_FORMAT_MODEL, TRANSLATED_MODEL, UPSTREAM_MODEL } from "./lib/models";
import { median } from "./lib/stats";
import { startStreamLoad } from "./lib/stream-load";
import {
  BASELINE_UNLIMITED,
  FLOOR,
  LIMITED,
  type PhaseFigures,
  printStreamBaseline,
  printStreamGoals,
  printStreamTable,
  type StreamTarget,
  UNLIMITED,
} from "./lib/streams-report";
import type { UpstreamStats } from "./streams-upstream.entry";

// Bun's fetch carries 256 requests at once unless told otherwise when the process starts, and
// the children inherit this process's environment and limits: the clients here, the floor's
// and the gateway's upstream calls all need N at once.
relaunchWithUpstreamLimit(process.env);
const fileLimit = raiseOpenFileLimit();

const ROUNDS = envInt("BENCH_STREAMS_ROUNDS", 2);
const COUNTS = (process.env.BENCH_STREAMS_N ?? "1000,4000,8000")
  .split(",")
  .map((s) => Math.floor(Number(s)))
  .filter((n) => n > 0);
const CHUNKS = envInt("BENCH_STREAMS_CHUNKS", 60);
const INTERVAL_MS = envInt("BENCH_STREAMS_INTERVAL_MS", 100);
const PLATEAU_MS = envInt("BENCH_STREAMS_PLATEAU_SECONDS", 12) * 1000;
const WARMUP_STREAMS = envInt("BENCH_STREAMS_WARMUP", 500);
const SAMPLE_MS = 250;
/** a stream's length: the first chunk at once, the rest an interval apart */
const STREAM_MS = (CHUNKS - 1) * INTERVAL_MS;
/** translated: the gateway's upstream speaks anthropic-messages (BENCH_STREAMS_PATH=translated) */
const TRANSLATED_PATH = process.env.BENCH_STREAMS_PATH === "translated";
/** BENCH_STREAMS_HEAP=1: each target's JavaScript heap at the end of each plateau (live objects after a full collection, commonest types) */
const HEAP = process.env.BENCH_STREAMS_HEAP === "1";
const GATEWAY_BUN_ARGS = (process.env.BENCH_GATEWAY_BUN_ARGS ?? "").split(" ").filter(Boolean);

const cpuUs = (s: CpuSample) => s.user + s.system;
const here = import.meta.dir;
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

type GatewayInfo = { url: string; key: string; limit: number | null };
type Running = { target: StreamTarget; child: Child<{ url: string }>; spec: RequestSpec; idleMb: number | null };

/** a checkout of another commit (with node_modules): its gateway (key without a limit) runs beside this one */
const BASELINE = process.env.BENCH_BASELINE;
const ALL_TARGETS: StreamTarget[] = [FLOOR, LIMITED, UNLIMITED];
if (BASELINE) ALL_TARGETS.push(BASELINE_UNLIMITED);
/** BENCH_STREAMS_TARGETS: a comma list of floor, limit, no-limit, baseline (default: all) */
const TARGET_KEYS: Record<string, StreamTarget | undefined> = { floor: FLOOR, limit: LIMITED, "no-limit": UNLIMITED, baseline: BASELINE_UNLIMITED };
const TARGETS = process.env.BENCH_STREAMS_TARGETS
  ? process.env.BENCH_STREAMS_TARGETS.split(",").map((k) => {
      const t = TARGET_KEYS[k.trim()];
      if (!t || !ALL_TARGETS.includes(t)) throw new Error(`BENCH_STREAMS_TARGETS: unknown or unavailable target ${k}`);
      return t;
    })
  : ALL_TARGETS;

const upstream = await spawnChild<{ url: string }>(join(here, "streams-upstream.entry.ts"), {
  BENCH_STREAMS_CHUNKS: String(CHUNKS),
  BENCH_STREAMS_INTERVAL_MS: String(INTERVAL_MS),
});
const upstreamStats = () => upstream.control<UpstreamStats>("/stats");

async function startTarget(target: StreamTarget): Promise<Running> {
  const env = (limit: string) => ({ BENCH_UPSTREAM_URL: upstream.info.url, BENCH_KEY_LIMIT: limit });
  const model = TRANSLATED_PATH ? TRANSLATED_MODEL : SAME_FORMAT_MODEL;
  const specFor = (url: string, key: string, body: string): RequestSpec => ({
    url,
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body,
    stream: true,
  });
  const gateway = async (script: string, limit: string, bunArgs: string[]) => {
    const child = await spawnChild<GatewayInfo>(script, env(limit), bunArgs);
    return { target, child, spec: specFor(`${child.info.url}/api/v1/chat/completions`, child.info.key, chatBody(model, true)), idleMb: null };
  };
  switch (target) {
    case FLOOR: {
      const child = await spawnChild<{ url: string }>(join(here, "floor-proxy.entry.ts"), env("off"));
      return { target, child, spec: specFor(`${child.info.url}/v1/chat/completions`, "bench", chatBody(UPSTREAM_MODEL, true)), idleMb: null };
    }
    case LIMITED:
      return gateway(join(here, "gateway.entry.ts"), process.env.BENCH_KEY_LIMIT ?? "1000", GATEWAY_BUN_ARGS);
    case UNLIMITED:
      return gateway(join(here, "gateway.entry.ts"), "off", GATEWAY_BUN_ARGS);
    default:
      return gateway(join(BASELINE!, "bench/gateway.entry.ts"), "off", []);
  }
}

/** One target at N streams: ramp, measured plateau, drain. */
async function phase(run: Running, n: number, round: number): Promise<PhaseFigures> {
  const load = startStreamLoad(run.spec, n, STREAM_MS, "[DONE]");
  await Bun.sleep(STREAM_MS + 1000);
  await upstream.control("/stats/reset");
  await run.child.control("/loop-delay/start");
  const cpu0 = cpuUs(await run.child.cpu());
  const up0 = await upstreamStats();
  load.startWindow();
  const rss: number[] = [];
  const upstreamOpen: number[] = [];
  const clientOpen: number[] = [];
  for (let t = 0; t < PLATEAU_MS; t += SAMPLE_MS) {
    await Bun.sleep(SAMPLE_MS);
    const m = readMemory(run.child.proc.pid);
    if (m) rss.push(m.rssMb);
    upstreamOpen.push((await upstreamStats()).open);
    clientOpen.push(load.open());
  }
  const window = load.endWindow();
  const cpu1 = cpuUs(await run.child.cpu());
  const up1 = await upstreamStats();
  const loop = await run.child.control<LoopDelay | null>("/loop-delay/stop");
  // after the CPU window: a full collection in the child, then what the open streams hold
  if (HEAP) console.log(`    heap at the plateau, ${run.target}, N=${n}: ${JSON.stringify(await run.child.control("/heap"))}`);
  await load.stop();
  const events = up1.events - up0.events;
  const plateauRss = rss.length ? median(rss) : null;
  return {
    round,
    n,
    target: run.target,
    errors: load.errors(),
    errorSamples: load.errorSamples(),
    maxUpstreamOpen: up1.maxOpen,
    meanUpstreamOpen: upstreamOpen.reduce((a, b) => a + b, 0) / upstreamOpen.length,
    meanClientOpen: clientOpen.reduce((a, b) => a + b, 0) / clientOpen.length,
    events,
    cpuUs: cpu1 - cpu0,
    seconds: PLATEAU_MS / 1000,
    cpuUsPerEvent: events > 0 ? (cpu1 - cpu0) / events : null,
    idleMb: run.idleMb,
    plateauMb: plateauRss,
    kbPerStream: plateauRss !== null && run.idleMb !== null ? ((plateauRss - run.idleMb) * 1024) / n : null,
    loopDelay: loop,
    ttfbs: window.ttfbs,
    completed: window.completed,
  };
}

const figures: PhaseFigures[] = [];
try {
  console.log(
    `many-streams bench: ${ROUNDS} rounds; N = ${COUNTS.join(", ")} concurrent streams; each answer ${CHUNKS} chunks ${INTERVAL_MS} ms apart (${(STREAM_MS / 1000).toFixed(1)} s), clients restarting at once; ` +
      `ramp ${(STREAM_MS / 1000).toFixed(1)} s, plateau ${(PLATEAU_MS / 1000).toFixed(0)} s; gateway path ${TRANSLATED_PATH ? "translated (anthropic-messages upstream)" : "same format (openai-chat upstream)"}`,
  );
  console.log(machineLine([]));
  console.log(
    `open files: soft limit ${fileLimit.soft_before ?? "?"} → ${fileLimit.soft ?? "?"} (hard ${fileLimit.hard ?? "?"}), inherited by every child; BUN_CONFIG_MAX_HTTP_REQUESTS=${process.env.BUN_CONFIG_MAX_HTTP_REQUESTS}`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    const runs = await Promise.all(TARGETS.map(startTarget));
    try {
      // warm-up: every target at once (not measured), then each one's RSS once settled
      await Promise.all(
        runs.map(async (r) => {
          const warm = startStreamLoad(r.spec, WARMUP_STREAMS, STREAM_MS, "[DONE]");
          await Bun.sleep(STREAM_MS * 2);
          await warm.stop();
          if (warm.errors() > 0) throw new Error(`${r.target}: warm-up errors: ${warm.errorSamples().join("; ")}`);
        }),
      );
      const idle = await Promise.all(runs.map((r) => settledRss(r.child.proc.pid)));
      runs.forEach((r, i) => {
        r.idleMb = idle[i]!;
      });
      for (const [ni, n] of COUNTS.entries()) {
        for (let i = 0; i < runs.length; i++) {
          const run = runs[(i + round + ni) % runs.length]!;
          const f = await phase(run, n, round);
          figures.push(f);
          console.log(
            `  round ${round + 1}/${ROUNDS}, N=${n}, ${run.target}: ${f.errors} errors, upstream open max ${f.maxUpstreamOpen} (mean ${f.meanUpstreamOpen.toFixed(0)}), ` +
              `${f.cpuUsPerEvent?.toFixed(2) ?? "—"} µs/event, ${f.kbPerStream?.toFixed(1) ?? "—"} KB/stream, loop delay p99 ${f.loopDelay?.p99.toFixed(1) ?? "—"} ms (${elapsed()})`,
          );
          if (f.errorSamples.length) console.log(`    errors: ${f.errorSamples.join(" | ")}`);
          await Bun.sleep(1000);
        }
      }
    } finally {
      await Promise.all(runs.map((r) => r.child.stop()));
    }
  }
  console.log("");
  printStreamTable(figures, TARGETS, COUNTS);
  console.log("");
  const failed = printStreamGoals(figures, COUNTS, ROUNDS);
  console.log(`${failed === 0 ? "all measured goals PASS" : `${failed} goal(s) FAIL`} (a benchmark: the exit code is 0 either way)`);
  if (BASELINE) printStreamBaseline(figures, COUNTS);
  console.log(`\ntotal run time ${elapsed()}`);
} finally {
  await upstream.stop();
}
