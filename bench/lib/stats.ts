// Accumulates batches of one target+mode, per round and over the whole run, and summarises them.
import type { BatchResult } from "./load";

export type Summary = {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  ttfbP50: number | null;
  ttfbP99: number | null;
  cpuUsPerReq: number | null;
};

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export class Accumulator {
  private latencies: number[] = [];
  private ttfbs: number[] = [];
  private wallMs = 0;
  private cpuUs = 0;
  private cpuMeasured = false;

  add(batch: BatchResult, cpuUs: number | null): void {
    this.latencies.push(...batch.latencies);
    this.ttfbs.push(...batch.ttfbs);
    this.wallMs += batch.wallMs;
    if (cpuUs !== null) {
      this.cpuUs += cpuUs;
      this.cpuMeasured = true;
    }
  }

  summary(): Summary {
    const n = this.latencies.length;
    return {
      requests: n,
      rps: n / (this.wallMs / 1000),
      p50: percentile(this.latencies, 50),
      p99: percentile(this.latencies, 99),
      ttfbP50: this.ttfbs.length ? percentile(this.ttfbs, 50) : null,
      ttfbP99: this.ttfbs.length ? percentile(this.ttfbs, 99) : null,
      cpuUsPerReq: this.cpuMeasured ? this.cpuUs / n : null,
    };
  }
}

/** The whole run, and each round on its own (for the spread across rounds). */
export class RoundAccumulator {
  readonly all = new Accumulator();
  readonly rounds: Accumulator[] = [];

  add(round: number, batch: BatchResult, cpuUs: number | null): void {
    this.all.add(batch, cpuUs);
    (this.rounds[round] ??= new Accumulator()).add(batch, cpuUs);
  }
}

export type Spread = { min: number; max: number };

export function spread(values: number[]): Spread | null {
  const finite = values.filter(Number.isFinite);
  return finite.length ? { min: Math.min(...finite), max: Math.max(...finite) } : null;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}
