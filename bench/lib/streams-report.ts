// The many-streams bench's tables (streams.ts): every target at every N over all rounds, and
// the goals of the many-streams case with the floor's figure, the ratio, the spread across
// rounds and PASS or FAIL.
import type { LoopDelay } from "./child";
import { median, percentile, type Spread, spread } from "./stats";

export const FLOOR = "floor";
export const LIMITED = "gateway, key with a limit";
export const UNLIMITED = "gateway, key without a limit";
/** BENCH_BASELINE's gateway, key without a limit */
export const BASELINE_UNLIMITED = "baseline, key without a limit";
export type StreamTarget = typeof FLOOR | typeof LIMITED | typeof UNLIMITED | typeof BASELINE_UNLIMITED;
/** the goals are this checkout's gateways' */
const GATEWAYS: StreamTarget[] = [LIMITED, UNLIMITED];

/** One target at one N in one round: the plateau's figures (errors over the whole phase). */
export type PhaseFigures = {
  round: number;
  n: number;
  target: StreamTarget;
  errors: number;
  errorSamples: string[];
  /** most streams the upstream had open at once during the plateau */
  maxUpstreamOpen: number;
  meanUpstreamOpen: number;
  meanClientOpen: number;
  /** upstream events written during the plateau, and the target's CPU over it (µs, all threads) */
  events: number;
  cpuUs: number;
  seconds: number;
  cpuUsPerEvent: number | null;
  idleMb: number | null;
  /** median RSS over the plateau */
  plateauMb: number | null;
  kbPerStream: number | null;
  loopDelay: LoopDelay | null;
  ttfbs: number[];
  completed: number;
};

/** The figures of one target at one N: pooled over rounds, and each round alone. */
type Pooled = {
  errors: number;
  minMaxOpen: number;
  cpuUsPerEvent: number | null;
  cpuRounds: number[];
  eventsPerSecond: number;
  cpuCores: number;
  kbPerStream: number | null;
  kbRounds: number[];
  plateauMb: number | null;
  loopP99: number | null;
  loopRounds: number[];
  loopMax: number | null;
  ttfbP50: number | null;
  ttfbP99: number | null;
  ttfbRounds: number[];
};

function pool(all: PhaseFigures[], target: StreamTarget, n: number): Pooled | null {
  const list = all.filter((f) => f.target === target && f.n === n);
  if (!list.length) return null;
  const sum = (pick: (f: PhaseFigures) => number) => list.reduce((a, f) => a + pick(f), 0);
  const events = sum((f) => f.events);
  const seconds = sum((f) => f.seconds);
  const finite = (xs: (number | null | undefined)[]) => xs.filter((x): x is number => x != null && Number.isFinite(x));
  const kbRounds = finite(list.map((f) => f.kbPerStream));
  const loopRounds = finite(list.map((f) => f.loopDelay?.p99));
  const ttfbs = list.flatMap((f) => f.ttfbs);
  return {
    errors: sum((f) => f.errors),
    minMaxOpen: Math.min(...list.map((f) => f.maxUpstreamOpen)),
    cpuUsPerEvent: events > 0 ? sum((f) => f.cpuUs) / events : null,
    cpuRounds: finite(list.map((f) => f.cpuUsPerEvent)),
    eventsPerSecond: events / seconds,
    cpuCores: sum((f) => f.cpuUs) / 1e6 / seconds,
    kbPerStream: kbRounds.length ? median(kbRounds) : null,
    kbRounds,
    plateauMb: finite(list.map((f) => f.plateauMb)).length ? median(finite(list.map((f) => f.plateauMb))) : null,
    loopP99: loopRounds.length ? median(loopRounds) : null,
    loopRounds,
    loopMax: finite(list.map((f) => f.loopDelay?.max)).length ? Math.max(...finite(list.map((f) => f.loopDelay?.max))) : null,
    ttfbP50: ttfbs.length ? percentile(ttfbs, 50) : null,
    ttfbP99: ttfbs.length ? percentile(ttfbs, 99) : null,
    ttfbRounds: list.filter((f) => f.ttfbs.length).map((f) => percentile(f.ttfbs, 99)),
  };
}

const fmt = (v: number | null | undefined, digits: number) => (v == null || !Number.isFinite(v) ? "—" : v.toFixed(digits));
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

export function printStreamTable(all: PhaseFigures[], targets: StreamTarget[], counts: number[]): void {
  const rows: string[][] = [];
  for (const n of counts) {
    const floor = pool(all, FLOOR, n);
    for (const target of targets) {
      const p = pool(all, target, n);
      if (!p) continue;
      const ratio = (x: number | null, f: number | null | undefined) => (x != null && f ? `${(x / f).toFixed(2)}x` : "—");
      rows.push([
        String(n),
        target,
        String(p.errors),
        String(p.minMaxOpen),
        fmt(p.eventsPerSecond, 0),
        fmt(p.cpuCores, 2),
        fmt(p.cpuUsPerEvent, 2),
        range(spread(p.cpuRounds), 2),
        target === FLOOR ? "" : ratio(p.cpuUsPerEvent, floor?.cpuUsPerEvent),
        fmt(p.plateauMb, 1),
        fmt(p.kbPerStream, 1),
        target === FLOOR ? "" : ratio(p.kbPerStream, floor?.kbPerStream),
        fmt(p.loopP99, 1),
        fmt(p.loopMax, 1),
        fmt(p.ttfbP50, 2),
        fmt(p.ttfbP99, 2),
      ]);
    }
  }
  console.log(
    table(
      [
        "N",
        "target",
        "errors",
        "upstream open (max)",
        "events/s",
        "CPU cores",
        "CPU µs/event",
        "(rounds)",
        "x floor",
        "RSS MB",
        "KB/stream",
        "x floor",
        "loop p99 ms",
        "loop max ms",
        "TTFB p50 ms",
        "TTFB p99 ms",
      ],
      rows,
      2,
    ),
  );
}

type Verdict = { label: string; goal: string; gateway: string; floor: string; xFloor: string; figure: string; rounds: string; ok: boolean | null };

const verdict = (ok: boolean | null) => (ok === null ? "—" : ok ? "PASS" : "FAIL");

/** The N nearest to `wanted` among those measured. */
const nearest = (counts: number[], wanted: number) => counts.reduce((a, b) => (Math.abs(b - wanted) < Math.abs(a - wanted) ? b : a));

/** The goals table; returns how many goals failed. */
export function printStreamGoals(all: PhaseFigures[], counts: number[], rounds: number): number {
  const most = Math.max(...counts);
  const fewest = Math.min(...counts);
  const ttfbN = nearest(counts, 4000);
  const rows: Verdict[] = [];
  for (const g of GATEWAYS) {
    const p = pool(all, g, most);
    const f = pool(all, FLOOR, most);
    if (!p || !f) continue;
    rows.push({
      label: `errors and streams carried upstream, N=${most}, ${g}`,
      goal: `0 errors, all ${most} open upstream`,
      gateway: `${p.errors} errors, max ${p.minMaxOpen} open`,
      floor: `${f.errors} errors, max ${f.minMaxOpen} open`,
      xFloor: "",
      figure: `${p.errors} errors, ${p.minMaxOpen} of ${most}`,
      rounds: `${rounds} rounds`,
      ok: p.errors === 0 && p.minMaxOpen >= most,
    });
  }
  for (const g of GATEWAYS) {
    const p = pool(all, g, fewest);
    const f = pool(all, FLOOR, fewest);
    if (!p?.cpuUsPerEvent || !f?.cpuUsPerEvent) continue;
    const perRound = [...Array(rounds).keys()].map((r) => {
      const gw = all.find((x) => x.round === r && x.n === fewest && x.target === g)?.cpuUsPerEvent;
      const fl = all.find((x) => x.round === r && x.n === fewest && x.target === FLOOR)?.cpuUsPerEvent;
      return gw && fl ? gw / fl : NaN;
    });
    const figure = p.cpuUsPerEvent / f.cpuUsPerEvent;
    rows.push({
      label: `CPU per relayed event, N=${fewest}, ${g}`,
      goal: "<= 2.0x floor",
      gateway: `${p.cpuUsPerEvent.toFixed(2)} µs`,
      floor: `${f.cpuUsPerEvent.toFixed(2)} µs`,
      xFloor: `${figure.toFixed(2)}x`,
      figure: `${figure.toFixed(2)}x`,
      rounds: range(spread(perRound), 2, "x"),
      ok: figure <= 2,
    });
  }
  for (const n of counts) {
    for (const g of GATEWAYS) {
      const p = pool(all, g, n);
      const f = pool(all, FLOOR, n);
      if (!p?.kbPerStream || !f?.kbPerStream) continue;
      const figure = p.kbPerStream / f.kbPerStream;
      rows.push({
        label: `memory per open stream, N=${n}, ${g}`,
        goal: "<= 2.0x floor",
        gateway: `${p.kbPerStream.toFixed(1)} KB`,
        floor: `${f.kbPerStream.toFixed(1)} KB`,
        xFloor: `${figure.toFixed(2)}x`,
        figure: `${figure.toFixed(2)}x`,
        rounds: range(spread(p.kbRounds), 1, " KB"),
        ok: figure <= 2,
      });
    }
  }
  for (const n of counts) {
    for (const g of GATEWAYS) {
      const p = pool(all, g, n);
      const f = pool(all, FLOOR, n);
      if (p?.loopP99 == null) continue;
      rows.push({
        label: `event-loop delay p99, plateau, N=${n}, ${g}`,
        goal: "<= 20 ms",
        gateway: `${p.loopP99.toFixed(1)} ms`,
        floor: f?.loopP99 == null ? "—" : `${f.loopP99.toFixed(1)} ms`,
        xFloor: "",
        figure: `${p.loopP99.toFixed(1)} ms`,
        rounds: range(spread(p.loopRounds), 1, " ms"),
        ok: p.loopP99 <= 20,
      });
    }
  }
  for (const g of GATEWAYS) {
    const p = pool(all, g, ttfbN);
    const f = pool(all, FLOOR, ttfbN);
    if (p?.ttfbP99 == null || f?.ttfbP99 == null) continue;
    const added = p.ttfbP99 - f.ttfbP99;
    const perRound = [...Array(rounds).keys()].map((r) => {
      const gw = all.find((x) => x.round === r && x.n === ttfbN && x.target === g);
      const fl = all.find((x) => x.round === r && x.n === ttfbN && x.target === FLOOR);
      return gw?.ttfbs.length && fl?.ttfbs.length ? percentile(gw.ttfbs, 99) - percentile(fl.ttfbs, 99) : NaN;
    });
    rows.push({
      label: `TTFB added p99, N=${ttfbN}, ${g}`,
      goal: "<= 5 ms added",
      gateway: `${p.ttfbP99.toFixed(2)} ms`,
      floor: `${f.ttfbP99.toFixed(2)} ms`,
      xFloor: "",
      figure: `${added >= 0 ? "+" : ""}${added.toFixed(2)} ms`,
      rounds: range(spread(perRound), 2, " ms"),
      ok: added <= 5,
    });
  }
  console.log(`goals (the gateways vs the floor proxy, same run; figures over all ${rounds} rounds, spread = per-round min–max)`);
  console.log(
    table(
      ["case", "goal", "gateway", FLOOR, "x floor", "goal figure", "rounds min–max", "verdict"],
      rows.map((r) => [r.label, r.goal, r.gateway, r.floor, r.xFloor, r.figure, r.rounds, verdict(r.ok)]),
      2,
    ),
  );
  return rows.filter((r) => r.ok === false).length;
}

/** This checkout's gateway against the baseline's, both with a key without a limit: the change per N. */
export function printStreamBaseline(all: PhaseFigures[], counts: number[]): void {
  console.log("\ngateway vs baseline, key without a limit (+ is more than the baseline)");
  const change = (now: number | null, before: number | null) =>
    now != null && before ? `${now >= before ? "+" : ""}${((now / before - 1) * 100).toFixed(1)}%` : "—";
  for (const n of counts) {
    const now = pool(all, UNLIMITED, n);
    const before = pool(all, BASELINE_UNLIMITED, n);
    if (!now || !before) continue;
    console.log(
      `  N=${String(n).padEnd(6)} CPU/event ${fmt(now.cpuUsPerEvent, 2)} vs ${fmt(before.cpuUsPerEvent, 2)} µs (${change(now.cpuUsPerEvent, before.cpuUsPerEvent)}) | ` +
        `memory/stream ${fmt(now.kbPerStream, 1)} vs ${fmt(before.kbPerStream, 1)} KB (${change(now.kbPerStream, before.kbPerStream)}) | ` +
        `loop p99 ${fmt(now.loopP99, 1)} vs ${fmt(before.loopP99, 1)} ms | TTFB p99 ${fmt(now.ttfbP99, 2)} vs ${fmt(before.ttfbP99, 2)} ms`,
    );
  }
}
