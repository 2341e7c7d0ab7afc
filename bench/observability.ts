// Observability's cost on the inference hot path (not a test; loopback only). See bench/README.md.
//
// Three gateways on one mock upstream, measured in interleaved batches: broadcast off (`none`,
// every workspace's default), broadcast on with 3 destinations (one plain, one in privacy mode,
// one with a regex filter rule) delivering to a loopback receiver in this process, and I/O
// logging on. Per request: the CPU of the gateway's main thread (where requests are served: the
// hot path) and of the whole process (its job worker's dispatch and deliveries included: each
// batch waits until every delivery arrived before the CPU is read). Prints the difference to
// `none`; the goal is under 10 % on the main thread.

import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Child, spawnChild, spawnCommand } from "./lib/child";
import { envInt } from "./lib/env";
import { type RequestSpec, runBatch } from "./lib/load";
import { machineLine } from "./lib/machine";
import { chatBody, SAME_FORMAT_MODEL } from "./lib/models";
import { canPin, keepOffMainCpu, pinMainThread } from "./lib/pin";
import { percentile } from "./lib/stats";
import { startTraceReceiver } from "./lib/trace-receiver";

const ROUNDS = envInt("BENCH_ROUNDS", 5);
const REQUESTS = envInt("BENCH_REQUESTS", 2000);
const BATCH = envInt("BENCH_BATCH", 250);
/**
 * More than overhead.ts's 300: the code only broadcast runs (capture, sealing, the outbox row) is
 * exercised in half the batches, so after a short warm-up it is measured while still being
 * compiled (bun's JIT is still at work after thousands of requests, bench/README.md).
 */
const WARMUP = envInt("BENCH_WARMUP", 3000);
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 16);
/**
 * BENCH_OBS_SETTLE_MS: every batch, whatever its mode, is measured over the same window: from just
 * before its first request to this long after its last. A broadcast batch's deliveries must all
 * arrive inside it (the drain waits up to half a second under load; the run says how many did
 * not). A gateway's main thread keeps working when requests stop (about 1.5 ms a second idle, and
 * a few milliseconds of collection in the second after a burst), so a window that only the
 * broadcast batches stretched (theirs waited for the deliveries, `none`'s for 30 ms) charged that
 * work to broadcast. 0: those unequal windows, as measured before.
 */
const SETTLE_MS = envInt("BENCH_OBS_SETTLE_MS", 700);
const ALL_MODES = ["none", "broadcast", "broadcast-filtered", "io-logging", "capture-only", "none-twin", "broadcast-twin", "capture-only-twin"] as const;
type Mode = (typeof ALL_MODES)[number];
/**
 * BENCH_OBS_TOGGLE=1: the same comparison inside each process. Two broadcast gateways, each
 * measured in batches with the workspace's broadcast switched off (`none`) and on, in turn, so
 * the two figures share one process's JIT, heap and placement. BENCH_OBS_MODES (default
 * `broadcast,broadcast-twin`) may name `capture-only,capture-only-twin` instead: the request
 * side's share alone, with no job worker beside it.
 */
const TOGGLE = process.env.BENCH_OBS_TOGGLE === "1";
/**
 * BENCH_OBS_MODES: a comma list of the modes to run. A `-twin` is a second gateway of the same
 * mode in a process of its own: the two are pooled (their CPU and requests added up), because a
 * process's JIT and placement alone move its figure by 1–7 %, as much as what is measured.
 */
const MODES: readonly Mode[] = (process.env.BENCH_OBS_MODES ?? (TOGGLE ? "broadcast,broadcast-twin" : "none,none-twin,broadcast,broadcast-twin,io-logging"))
  .split(",")
  .filter((m): m is Mode => (ALL_MODES as readonly string[]).includes(m));
/** the mode a gateway measures (a twin's is its original's) */
const familyOf = (mode: Mode): string => mode.replace(/-twin$/, "");
// a toggled gateway must be one whose switch is broadcast: any other would forward (or not) unawaited
if (TOGGLE && !MODES.every((m) => ["broadcast", "capture-only"].includes(familyOf(m))))
  throw new Error("BENCH_OBS_TOGGLE=1 takes only broadcast and capture-only gateways (and their twins) in BENCH_OBS_MODES");
/** one measured batch's gateway and the mode it serves in (a toggled gateway serves in two) */
type Run = { gateway: Mode; family: string };
const RUNS: readonly Run[] = TOGGLE
  ? MODES.flatMap((gateway) => ["none", "broadcast"].map((family) => ({ gateway, family })))
  : MODES.map((gateway) => ({ gateway, family: familyOf(gateway) }));
const FAMILIES = [...new Set(RUNS.map((r) => r.family))];
if (!FAMILIES.includes("none")) throw new Error("BENCH_OBS_MODES must include none");
/**
 * BENCH_PIN=1: each gateway's main thread alone on CPU 0, everything else (its job worker and
 * other threads, the load generator, the receiver, the mock upstream) on the other CPUs, so the
 * main thread's figure is its own work and not the cost of being preempted on a saturated machine.
 */
const PIN = process.env.BENCH_PIN === "1";
if (PIN && !canPin()) throw new Error("BENCH_PIN=1 needs taskset and at least 2 CPUs");
type Info = { url: string; key: string };
/** BENCH_OBS_PROFILE=1: a CPU profile of each gateway (every thread's JS) in $TMPDIR/gw-bench-obs-profile/<mode> */
const profileFlags = (mode: Mode): string[] =>
  process.env.BENCH_OBS_PROFILE === "1" ? ["--cpu-prof", `--cpu-prof-dir=${join(tmpdir(), "gw-bench-obs-profile", mode)}`] : [];
type Cpu = { all: number; main: number };

const here = import.meta.dir;
const receiver = startTraceReceiver();
const upstream = await spawnChild<{ url: string }>(join(here, "upstream.entry.ts"));
const gateways = new Map<Mode, Child<Info>>();
for (const mode of MODES)
  gateways.set(
    mode,
    await spawnCommand<Info>(["bun", ...profileFlags(mode), join(here, "observability-gateway.entry.ts")], {
      BENCH_UPSTREAM_URL: upstream.info.url,
      BENCH_OBS_RECEIVER_URL: receiver.url,
      BENCH_OBS_MODE: mode,
    }),
  );
if (PIN) for (const pid of [process.pid, upstream.proc.pid]) keepOffMainCpu(pid);
const cpuOf = async (child: Child<Info>): Promise<Cpu> => (await (await fetch(child.info.control)).json()) as Cpu;
const specs = (child: Child<Info>, stream: boolean): RequestSpec[] => [
  {
    url: `${child.info.url}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${child.info.key}`, "content-type": "application/json" },
    body: chatBody(SAME_FORMAT_MODEL, stream),
    stream,
  },
];

/**
 * Waits until the receiver has every delivery the broadcast gateway owes so far, then a little
 * longer for the last jobs' completions. The gateway is not asked (a query there would count
 * as its own work).
 */
async function drained(expected: number): Promise<void> {
  for (let i = 0; i < 6000 && receiver.delivered() < expected; i++) await Bun.sleep(5);
  if (receiver.delivered() < expected) throw new Error(`deliveries: ${receiver.delivered()} of ${expected}`);
  await Bun.sleep(30);
}

type Acc = { requests: number; main: number; all: number; latencies: number[] };
const results = new Map<string, Acc>();
let broadcastRequests = 0;
/** ms from a broadcast batch's last answer to its last delivery (each must fit in SETTLE_MS) */
const drainWaits: number[] = [];
console.log(machineLine());
console.log(
  `observability hot-path bench: ${ROUNDS} rounds × ${REQUESTS} requests per gateway and mode, batches of ${BATCH}, ${CONCURRENCY} connections, each batch measured over its requests and ${SETTLE_MS === 0 ? "its deliveries (broadcast) or 30 ms (none): unequal windows" : `the ${SETTLE_MS} ms after them`}${PIN ? "; each gateway's main thread pinned alone to CPU 0" : ""}`,
);
for (const stream of [false, true]) {
  for (const mode of MODES) {
    const child = gateways.get(mode)!;
    // a toggled gateway warms up as the broadcast gateway it is (its last batch may have switched it off)
    if (TOGGLE) await fetch(`${child.info.control}broadcast/on`, { method: "POST" });
    await runBatch(specs(child, stream), WARMUP, CONCURRENCY);
    if (familyOf(mode) === "broadcast") await drained((broadcastRequests += WARMUP) * 3);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let done = 0; done < REQUESTS; done += BATCH) {
      const size = Math.min(BATCH, REQUESTS - done);
      for (let i = 0; i < RUNS.length; i++) {
        const { gateway: mode, family } = RUNS[(i + round + done / BATCH) % RUNS.length]!;
        const child = gateways.get(mode)!;
        if (PIN) pinMainThread(child.proc.pid);
        if (TOGGLE) await fetch(`${child.info.control}broadcast/${family === "broadcast" ? "on" : "off"}`, { method: "POST" });
        const before = await cpuOf(child);
        const batch = await runBatch(specs(child, stream), size, CONCURRENCY);
        const ended = performance.now();
        // a capture-only gateway, toggled on, delivers nothing (it has no job worker)
        const delivers = family === "broadcast" && familyOf(mode) === "broadcast";
        if (delivers) await drained((broadcastRequests += size) * 3);
        const waited = performance.now() - ended;
        if (delivers) drainWaits.push(waited);
        await Bun.sleep(Math.max(SETTLE_MS === 0 && !delivers ? 30 : 0, SETTLE_MS - waited));
        const after = await cpuOf(child);
        const path = stream ? "stream" : "json";
        // each gateway alone (toggled: in each of its modes), and pooled with its twin
        for (const name of new Set([`${path} ${TOGGLE ? `${mode} ${family}` : mode}`, `${path} pooled ${family}`])) {
          const acc = results.get(name) ?? { requests: 0, main: 0, all: 0, latencies: [] };
          acc.requests += size;
          acc.main += after.main - before.main;
          acc.all += after.all - before.all;
          acc.latencies.push(...batch.latencies);
          results.set(name, acc);
        }
      }
    }
  }
}

const row = (name: string): Acc => results.get(name)!;
const perReq = (a: Acc, field: "main" | "all") => a[field] / a.requests;
const change = (a: Acc, base: Acc, field: "main" | "all") => (perReq(a, field) - perReq(base, field)) / perReq(base, field);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
console.log("\n| path | mode | gateways | main thread CPU µs/req | vs none | whole process CPU µs/req | vs none | p50 ms | p99 ms |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const path of ["json", "stream"]) {
  const base = row(`${path} pooled none`);
  for (const family of FAMILIES) {
    const a = row(`${path} pooled ${family}`);
    const sorted = [...a.latencies].sort((x, y) => x - y);
    const vs = (field: "main" | "all") => (family === "none" ? "" : pct(change(a, base, field)));
    const count = RUNS.filter((r) => r.family === family).length;
    console.log(
      `| ${path} | ${family} | ${count} | ${perReq(a, "main").toFixed(0)} | ${vs("main")} | ${perReq(a, "all").toFixed(0)} | ${vs("all")} | ${percentile(sorted, 50).toFixed(2)} | ${percentile(sorted, 99).toFixed(2)} |`,
    );
  }
}
if (TOGGLE) {
  console.log("\nEach gateway against itself with broadcast off:");
  for (const path of ["json", "stream"])
    for (const mode of MODES) {
      const [off, on] = [row(`${path} ${mode} none`), row(`${path} ${mode} broadcast`)];
      console.log(
        `  ${path} ${mode}: ${perReq(off, "main").toFixed(0)} off, ${perReq(on, "main").toFixed(0)} on µs/req main thread (${pct(change(on, off, "main"))})`,
      );
    }
}
const twins = TOGGLE ? [] : MODES.filter((m) => m.endsWith("-twin"));
if (twins.length > 0) {
  console.log("\nEach gateway alone, against its twin (the run's noise):");
  for (const path of ["json", "stream"])
    for (const twin of twins) {
      const original = row(`${path} ${familyOf(twin)}`);
      console.log(
        `  ${path} ${familyOf(twin)}: ${perReq(original, "main").toFixed(0)} and ${perReq(row(`${path} ${twin}`), "main").toFixed(0)} µs/req main thread (${pct(change(row(`${path} ${twin}`), original, "main"))})`,
      );
    }
}
for (const path of MODES.includes("broadcast") ? ["json", "stream"] : []) {
  const c = change(row(`${path} pooled broadcast`), row(`${path} pooled none`), "main");
  console.log(`goal (${path}): main-thread CPU with broadcast on and 3 destinations within 10 % of none: ${pct(c)} ${c < 0.1 ? "PASS" : "FAIL"}`);
}
console.log(`deliveries received: ${receiver.delivered()} (3 per broadcast request: ${broadcastRequests * 3}), in ${receiver.exports()} exports`);
if (drainWaits.length > 0) {
  const waits = [...drainWaits].sort((x, y) => x - y);
  const over = waits.filter((w) => w > SETTLE_MS).length;
  console.log(
    `last delivery after a batch's last answer: p50 ${percentile(waits, 50).toFixed(0)} ms, max ${waits.at(-1)!.toFixed(0)} ms${SETTLE_MS > 0 ? `; ${over} of ${waits.length} batches took longer than the ${SETTLE_MS} ms window${over > 0 ? " (their windows were longer than none's: raise BENCH_OBS_SETTLE_MS)" : ""}` : ""}`,
  );
}
for (const child of [...gateways.values(), upstream]) await child.stop();
receiver.stop();
