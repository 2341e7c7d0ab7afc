// Prints the results table, the goals table (every goal with its value, the ratio to the
// floor proxy, the spread across rounds and PASS/FAIL) and the baseline comparison.
import { type Spread, type Summary, spread } from "./stats";

export type Mode = "json" | "stream" | "stream c=1" | "mixed";
export type Row = { target: string; mode: Mode; concurrency: number; summary: Summary; rounds: Summary[] };

/** Resident memory of the floor and the gateway, MB: fresh idle processes, and the peak (VmHWM) of the measured ones. */
/** `idleWithWorker`: the idle gateway as `bun start` runs it (one job worker), shown beside the goal, not part of it */
export type MemoryFigures = {
  idleGateway: number | null;
  idleWithWorker: number | null;
  idleFloor: number | null;
  peakGateway: number | null;
  peakFloor: number | null;
  /** ms from exec to the first 200 from /ready of the release binary (lib/cold-start.ts); null when not measured */
  coldStartMs: number | null;
};

/** What a goal is computed from: the whole run, or one round. */
export type View = { get(target: string, mode: Mode): Summary | undefined; memory: MemoryFigures };

export type SoakSample = { seconds: number; rssMb: number; rps: number };

export const FLOOR = "floor proxy";
export const SAME = "gateway same-format";
export const TRANSLATED = "gateway translated";
export const TRANSLATED_GEMINI = "gateway translated (gemini)";
export const AZURE = "gateway azure-openai";
export const BEDROCK = "gateway bedrock";
export const PORTKEY = "portkey";
/** the response cache's rows (json, same format), served by a gateway of their own with the cache on */
export const CACHE_HIT = "gateway cache hit";
export const CACHE_MISS = "gateway cache miss";
/** the miss's request in the same process with the cache switched off (as a reload does) */
export const CACHE_DISABLED = "gateway cache disabled";

const fmt = (v: number | null | undefined, digits: number) => (v === null || v === undefined || Number.isNaN(v) ? "—" : v.toFixed(digits));
const range = (s: Spread | null, digits: number, unit = "") => (s ? `${s.min.toFixed(digits)}–${s.max.toFixed(digits)}${unit}` : "—");

function table(headers: string[], rows: string[][], leftColumns: number): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function printTable(rows: Row[]): void {
  const over = (r: Row, pick: (s: Summary) => number | null, digits: number) => range(spread(r.rounds.map((s) => pick(s) ?? NaN)), digits);
  console.log(
    table(
      ["target", "mode", "conc", "req/s", "(rounds)", "p50 ms", "p99 ms", "CPU µs/req", "(rounds)", "TTFB p50 ms", "TTFB p99 ms"],
      rows.map((r) => {
        const s = r.summary;
        const streamed = r.mode.startsWith("stream");
        return [
          r.target,
          r.mode,
          String(r.concurrency),
          fmt(s.rps, 0),
          over(r, (x) => x.rps, 0),
          fmt(s.p50, 3),
          fmt(s.p99, 3),
          fmt(s.cpuUsPerReq, 0),
          s.cpuUsPerReq === null ? "" : over(r, (x) => x.cpuUsPerReq, 0),
          streamed ? fmt(s.ttfbP50, 3) : "—",
          streamed ? fmt(s.ttfbP99, 3) : "—",
        ];
      }),
      2,
    ),
  );
}

type Figures = { gateway: number; floor: number; figure: number; note?: string };
type Goal = {
  label: string;
  goal: string;
  limit: number;
  /** the figure must be at least the limit (throughput), else at most */
  atLeast?: boolean;
  compute(v: View): Figures | null;
  value(x: number): string;
  figure(x: number): string;
  digits: number;
  unit: string;
  /** why there is no figure when compute gives none */
  missing: string;
};

const µs = (x: number) => `${x.toFixed(0)} µs`;
const ms = (x: number) => `${x.toFixed(3)} ms`;
const MB = (x: number) => `${x.toFixed(1)} MB`;
const times = (x: number) => `${x.toFixed(2)}x`;

function cpuGoal(label: string, target: string, mode: Mode, limit: number): Goal {
  return {
    label,
    goal: `<= ${limit.toFixed(1)}x floor`,
    limit,
    compute(v) {
      const gw = v.get(target, mode)?.cpuUsPerReq;
      const floor = v.get(FLOOR, mode)?.cpuUsPerReq;
      return gw && floor ? { gateway: gw, floor, figure: gw / floor } : null;
    },
    value: µs,
    figure: times,
    digits: 2,
    unit: "x",
    missing: "not measured",
  };
}

function ttfbGoal(label: string, target: string, pct: "p50" | "p99", limit: number): Goal {
  return {
    label,
    goal: `<= ${limit} ms added`,
    limit,
    compute(v) {
      const pick = (s: Summary | undefined) => (pct === "p50" ? s?.ttfbP50 : s?.ttfbP99);
      const gw = pick(v.get(target, "stream c=1"));
      const floor = pick(v.get(FLOOR, "stream c=1"));
      return gw != null && floor != null ? { gateway: gw, floor, figure: gw - floor } : null;
    },
    value: ms,
    figure: (x) => `${x >= 0 ? "+" : ""}${x.toFixed(3)} ms`,
    digits: 3,
    unit: " ms",
    missing: "not measured",
  };
}

const PORTKEY_MISSING = "not run (BENCH_PORTKEY=1)";

function portkeyGoal(label: string, mode: Mode): Goal {
  return {
    label,
    goal: ">= 10x Portkey",
    limit: 10,
    atLeast: true,
    compute(v) {
      const gw = v.get(SAME, mode)?.rps;
      const floor = v.get(FLOOR, mode)?.rps;
      const portkey = v.get(PORTKEY, mode)?.rps;
      return gw && floor && portkey ? { gateway: gw, floor, figure: gw / portkey, note: `(Portkey ${portkey.toFixed(0)} req/s)` } : null;
    },
    value: (x) => `${x.toFixed(0)} req/s`,
    figure: times,
    digits: 2,
    unit: "x",
    missing: PORTKEY_MISSING,
  };
}

function memoryGoal(label: string, limit: number, pick: (m: MemoryFigures) => [number | null, number | null]): Goal {
  return {
    label,
    goal: `<= ${limit} MB`,
    limit,
    compute(v) {
      const [gw, floor] = pick(v.memory);
      return gw !== null && floor !== null ? { gateway: gw, floor, figure: gw } : null;
    },
    value: MB,
    figure: MB,
    digits: 1,
    unit: " MB",
    missing: "not measured (no /proc)",
  };
}

/** A row's CPU per request against another row of the same run (`short` names it): at most `limit` times it. */
function relativeGoal(label: string, target: string, mode: Mode, against: string, short: string, limit: number, goal: string): Goal {
  return {
    label,
    goal,
    limit,
    compute(v) {
      const gw = v.get(target, mode)?.cpuUsPerReq;
      const other = v.get(against, mode)?.cpuUsPerReq;
      const floor = v.get(FLOOR, mode)?.cpuUsPerReq;
      return gw && other && floor ? { gateway: gw, floor, figure: gw / other, note: `(${short} ${other.toFixed(0)} µs)` } : null;
    },
    value: µs,
    figure: (x) => `${x.toFixed(2)}x ${short}`,
    digits: 2,
    unit: "x",
    missing: "not measured",
  };
}

/** An upstream API's row against the translated (anthropic-messages) row of the same run: no more CPU per request. */
const sameAsTranslatedGoal = (label: string, target: string, mode: Mode) => relativeGoal(label, target, mode, TRANSLATED, "translated", 1, "<= translated row");

const coldStartGoal: Goal = {
  label: "cold start to /ready, release binary, existing database",
  goal: "<= 100 ms",
  limit: 100,
  compute(v) {
    const ms = v.memory.coldStartMs;
    return ms === null ? null : { gateway: ms, floor: NaN, figure: ms };
  },
  value: (x) => (Number.isNaN(x) ? "—" : `${x.toFixed(0)} ms`),
  figure: (x) => `${x.toFixed(0)} ms`,
  digits: 0,
  unit: " ms",
  missing: "not measured (the binary did not build or start: above)",
};

const GOALS: Goal[] = [
  // guards since issue 47: the durable record alone costs about one floor (README, Performance)
  cpuGoal("CPU/req, json, same format (openai-chat)", SAME, "json", 5),
  cpuGoal("CPU/req, json, translated (anthropic-messages)", TRANSLATED, "json", 5),
  cpuGoal("CPU/req, stream of 50 chunks, same format", SAME, "stream", 6.5),
  cpuGoal("CPU/req, stream of 50 chunks, translated", TRANSLATED, "stream", 6.5),
  cpuGoal("CPU/req, json, translated (gemini)", TRANSLATED_GEMINI, "json", 5),
  cpuGoal("CPU/req, stream of 50 chunks, translated (gemini)", TRANSLATED_GEMINI, "stream", 6.5),
  sameAsTranslatedGoal("CPU/req, json, azure-openai", AZURE, "json"),
  sameAsTranslatedGoal("CPU/req, json, bedrock (Converse, SigV4)", BEDROCK, "json"),
  sameAsTranslatedGoal("CPU/req, json, gemini", TRANSLATED_GEMINI, "json"),
  sameAsTranslatedGoal("CPU/req, stream of 50 chunks, azure-openai", AZURE, "stream"),
  sameAsTranslatedGoal("CPU/req, stream of 50 chunks, bedrock (Converse, SigV4)", BEDROCK, "stream"),
  sameAsTranslatedGoal("CPU/req, stream of 50 chunks, gemini", TRANSLATED_GEMINI, "stream"),
  // issue 43: a hit does less than a proxy (no upstream call); a miss's look-up and kept entry cost at most 5 %
  cpuGoal("CPU/req, json, response cache hit", CACHE_HIT, "json", 1),
  relativeGoal("CPU/req, json, response cache miss", CACHE_MISS, "json", CACHE_DISABLED, "disabled", 1.05, "<= 1.05x cache disabled"),
  ttfbGoal("TTFB added, stream, c=1, same format, p50", SAME, "p50", 0.5),
  ttfbGoal("TTFB added, stream, c=1, same format, p99", SAME, "p99", 2),
  ttfbGoal("TTFB added, stream, c=1, translated, p50", TRANSLATED, "p50", 0.5),
  ttfbGoal("TTFB added, stream, c=1, translated, p99", TRANSLATED, "p99", 2),
  portkeyGoal("throughput vs Portkey (Node), json", "json"),
  portkeyGoal("throughput vs Portkey (Node), stream", "stream"),
  memoryGoal("peak RSS after load, json + stream mixed", 140, (m) => [m.peakGateway, m.peakFloor]),
  memoryGoal("idle RSS, default catalog, fresh start", 80, (m) => [m.idleGateway, m.idleFloor]),
  coldStartGoal,
];

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

/** The goals table; returns how many goals failed. */
export function printGoals(all: View, rounds: View[], soak: SoakSample[] | null, portkeyMissing?: string): number {
  let failed = 0;
  const rows = GOALS.map((g) => {
    const f = g.compute(all);
    if (!f) return [g.label, g.goal, "—", "—", "—", (g.missing === PORTKEY_MISSING && portkeyMissing) || g.missing, "", "—"];
    const perRound = spread(rounds.map((v) => g.compute(v)?.figure ?? NaN));
    const ok = g.atLeast ? f.figure >= g.limit : f.figure <= g.limit;
    if (!ok) failed++;
    return [
      g.label,
      g.goal,
      g.value(f.gateway),
      g.value(f.floor),
      Number.isNaN(f.floor) ? "—" : times(f.gateway / f.floor),
      [g.figure(f.figure), f.note].filter(Boolean).join(" "),
      range(perRound, g.digits, g.unit),
      verdict(ok),
    ];
  });
  rows.push(soakRow(soak, all.memory.peakFloor, () => failed++));
  console.log(table(["case", "goal", "gateway", "floor", "x floor", "goal figure", "rounds min–max", "verdict"], rows, 2));
  return failed;
}

/** RSS flat over the soak: the last sample within 10% of the one at minute 1. */
function soakRow(soak: SoakSample[] | null, floorMb: number | null, fail: () => void): string[] {
  const label = "RSS flat over the soak (last vs minute 1)";
  const goal = "within 10%";
  const atMinute1 = soak?.find((s) => s.seconds >= 60);
  const last = soak?.at(-1);
  if (!soak) return [label, goal, "—", "—", "—", "not run (BENCH_SOAK_MINUTES=10)", "", "—"];
  if (!atMinute1 || !last || last === atMinute1) return [label, goal, "—", "—", "—", "soak too short (needs > 1 minute)", "", "—"];
  const change = (last.rssMb / atMinute1.rssMb - 1) * 100;
  const ok = Math.abs(change) <= 10;
  if (!ok) fail();
  const s = spread(soak.map((x) => x.rssMb));
  return [
    label,
    goal,
    MB(last.rssMb),
    floorMb === null ? "—" : MB(floorMb),
    floorMb === null ? "—" : times(last.rssMb / floorMb),
    `${change >= 0 ? "+" : ""}${change.toFixed(1)}% (${MB(atMinute1.rssMb)} at 1 min)`,
    `samples ${range(s, 1, " MB")}`,
    verdict(ok),
  ];
}

export function printSoak(soak: SoakSample[]): void {
  console.log(`\nsoak: gateway RSS every ${soak.length > 1 ? soak[1]!.seconds - soak[0]!.seconds : (soak[0]?.seconds ?? 0)} s under the mixed load`);
  for (const s of soak) console.log(`  ${String(s.seconds).padStart(5)} s  ${MB(s.rssMb).padStart(9)}  ${s.rps.toFixed(0).padStart(6)} req/s`);
}

/** This gateway against the baseline checkout (BENCH_BASELINE), same mode and path: the regression figure. */
export function printBaseline(rows: Row[]): void {
  console.log("\ngateway vs baseline (CPU/req change; + is more CPU than the baseline)");
  for (const mode of ["json", "stream"] as const) {
    for (const path of ["same-format", "translated", "azure-openai", "bedrock", "translated (gemini)", "cache hit", "cache miss", "cache disabled"]) {
      const now = rows.find((r) => r.target === `gateway ${path}` && r.mode === mode)?.summary;
      const before = rows.find(
        (r) => (r.target === `baseline gateway ${path}` && r.mode === mode) || (r.target === `baseline ${path}` && r.mode === mode),
      )?.summary;
      if (!now || !before) continue;
      const change = (now.cpuUsPerReq! / before.cpuUsPerReq! - 1) * 100;
      const p50 = now.p50 - before.p50;
      console.log(
        `  ${(`${path} ${mode}`).padEnd(30)} CPU ${fmt(now.cpuUsPerReq, 0)} vs ${fmt(before.cpuUsPerReq, 0)} µs (${change >= 0 ? "+" : ""}${change.toFixed(1)}%) | p50 ${p50 >= 0 ? "+" : ""}${p50.toFixed(3)} ms`,
      );
    }
  }
}
