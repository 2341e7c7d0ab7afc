// Accumulates batches of one target+mode and summarises them.
import type { BatchResult } from "./load";

export type Summary = { requests: number; rps: number; p50: number; p99: number; ttfbP50: number | null; cpuUsPerReq: number | null };

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
      cpuUsPerReq: this.cpuMeasured ? this.cpuUs / n : null,
    };
  }
}
