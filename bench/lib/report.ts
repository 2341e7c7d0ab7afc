// Prints the results table, the gateway-vs-floor ratios and the goals.
import type { Summary } from "./stats";

export type Row = { target: string; mode: "json" | "stream"; summary: Summary };

export const GOALS = { cpuRatio: 2, addedP50Ms: 0.5, addedTtfbMs: 1 };

const fmt = (v: number | null, digits: number) => (v === null || Number.isNaN(v) ? "—" : v.toFixed(digits));
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function printTable(rows: Row[]): void {
  console.log(
    table(
      ["target", "mode", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "TTFB p50 ms"],
      rows.map(({ target, mode, summary: s }) => [
        target,
        mode,
        fmt(s.rps, 0),
        fmt(s.p50, 3),
        fmt(s.p99, 3),
        fmt(s.cpuUsPerReq, 0),
        mode === "stream" ? fmt(s.ttfbP50, 3) : "—",
      ]),
    ),
  );
}

/** Gateway rows against the floor row of the same mode. */
export function printGoals(rows: Row[], floorTarget: string, gatewayTargets: string[]): void {
  console.log("\ngateway vs floor (goals: CPU/req <= 2x floor, added p50 < 0.5 ms, added TTFB p50 < 1 ms)");
  for (const mode of ["json", "stream"] as const) {
    const floor = rows.find((r) => r.target === floorTarget && r.mode === mode)?.summary;
    if (!floor) continue;
    for (const target of gatewayTargets) {
      const gw = rows.find((r) => r.target === target && r.mode === mode)?.summary;
      if (!gw) continue;
      const ratio = gw.cpuUsPerReq! / floor.cpuUsPerReq!;
      const addedP50 = gw.p50 - floor.p50;
      const parts = [
        `CPU ${ratio.toFixed(2)}x (${fmt(gw.cpuUsPerReq, 0)} vs ${fmt(floor.cpuUsPerReq, 0)} µs) ${verdict(ratio <= GOALS.cpuRatio)}`,
        `added p50 ${addedP50.toFixed(3)} ms ${verdict(addedP50 < GOALS.addedP50Ms)}`,
      ];
      if (mode === "stream") {
        const addedTtfb = gw.ttfbP50! - floor.ttfbP50!;
        parts.push(`added TTFB ${addedTtfb.toFixed(3)} ms ${verdict(addedTtfb < GOALS.addedTtfbMs)}`);
      }
      console.log(`  ${(target + " " + mode).padEnd(28)} ${parts.join(" | ")}`);
    }
  }
}

/** This gateway against the baseline checkout (BENCH_BASELINE), same mode and path: the regression figure. */
export function printBaseline(rows: Row[]): void {
  console.log("\ngateway vs baseline (CPU/req change; + is more CPU than the baseline)");
  for (const mode of ["json", "stream"] as const) {
    for (const path of ["same-format", "translated"]) {
      const now = rows.find((r) => r.target === `gateway ${path}` && r.mode === mode)?.summary;
      const before = rows.find((r) => r.target === `baseline ${path}` && r.mode === mode)?.summary;
      if (!now || !before) continue;
      const change = (now.cpuUsPerReq! / before.cpuUsPerReq! - 1) * 100;
      const p50 = now.p50 - before.p50;
      console.log(`  ${(path + " " + mode).padEnd(22)} CPU ${fmt(now.cpuUsPerReq, 0)} vs ${fmt(before.cpuUsPerReq, 0)} µs (${change >= 0 ? "+" : ""}${change.toFixed(1)}%) | p50 ${p50 >= 0 ? "+" : ""}${p50.toFixed(3)} ms`);
    }
  }
}
