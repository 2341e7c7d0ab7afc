import { describe, expect, test } from "bun:test";
import { LiveStats, type Percentiles } from "../../../src/catalog/live-stats";

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const MIN = 60_000;

/** nearest-rank percentile of the values actually sent */
function truePercentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(sorted.length * q) - 1)]!;
  return { p50: at(0.5), p75: at(0.75), p90: at(0.9), p99: at(0.99) };
}

function expectWithinBucket(reported: Percentiles, truth: Percentiles) {
  for (const k of ["p50", "p75", "p90", "p99"] as const) {
    expect(Math.abs(reported[k] - truth[k]) / truth[k]).toBeLessThanOrEqual(0.125);
  }
}

describe("live stats from scripted traffic", () => {
  test("known latencies and throughputs give the expected percentiles", () => {
    let now = T0;
    const stats = new LiveStats(() => now);
    const latencies = Array.from({ length: 100 }, (_, i) => (i + 1) * 10); // 10 ms .. 1000 ms
    const throughputs = Array.from({ length: 100 }, (_, i) => i + 1); // 1 .. 100 tokens/s
    latencies.forEach((l, i) => stats.record("ep", true, l, throughputs[i]!, now + i * 1000));
    now += 100 * 1000;
    const s = stats.stats("ep");
    expect(s.latencyLast30m).toEqual({ p50: 462.41, p75: 722.51, p90: 903.14, p99: 903.14 });
    expect(s.throughputLast30m).toEqual({ p50: 49.65, p75: 77.58, p90: 96.97, p99: 96.97 });
    expectWithinBucket(s.latencyLast30m!, truePercentiles(latencies));
    expectWithinBucket(s.throughputLast30m!, truePercentiles(throughputs));
    expect(s.requestsLast30m).toBe(100);
  });

  test("one slow outlier in a hundred shows in p99 only", () => {
    const now = T0;
    const stats = new LiveStats(() => now);
    for (let i = 0; i < 99; i++) stats.record("ep", true, 200, null, now);
    stats.record("ep", true, 5000, null, now);
    const s = stats.stats("ep")!;
    expect(s.latencyLast30m!.p50).toBe(s.latencyLast30m!.p90);
    expectWithinBucket(s.latencyLast30m!, { p50: 200, p75: 200, p90: 200, p99: 200 });
    // 100 samples: the 99th is still 200 ms; with 1% + 1 slow ones it moves
    stats.record("ep", true, 5000, null, now);
    expectWithinBucket(stats.stats("ep").latencyLast30m!, { p50: 200, p75: 200, p90: 200, p99: 5000 });
  });

  test("figures leave the 30-minute window as time passes", () => {
    let now = T0;
    const stats = new LiveStats(() => now);
    stats.record("ep", true, 100, 50, now);
    now += 29 * MIN;
    expect(stats.stats("ep").requestsLast30m).toBe(1);
    now += 2 * MIN;
    const s = stats.stats("ep");
    expect(s).toEqual({ latencyLast30m: null, throughputLast30m: null, uptimeLast5m: null, uptimeLast30m: null, uptimeLast1d: 100, requestsLast30m: 0 });
  });

  test("uptime falls with scripted failures, per window", () => {
    let now = T0;
    const stats = new LiveStats(() => now);
    for (let i = 0; i < 10; i++) stats.record("ep", true, 100, null, now);
    expect(stats.stats("ep")).toMatchObject({ uptimeLast5m: 100, uptimeLast30m: 100, uptimeLast1d: 100 });
    now += 10 * MIN;
    for (let i = 0; i < 10; i++) stats.record("ep", false, null, null, now);
    // last 5 min: only the failures; 30 min and a day: half
    expect(stats.stats("ep")).toMatchObject({ uptimeLast5m: 0, uptimeLast30m: 50, uptimeLast1d: 50 });
    now += 2 * MIN;
    for (let i = 0; i < 30; i++) stats.record("ep", true, 100, null, now);
    expect(stats.stats("ep")).toMatchObject({ uptimeLast5m: 75, uptimeLast30m: 80, uptimeLast1d: 80 });
    now += 40 * MIN;
    expect(stats.stats("ep")).toMatchObject({ uptimeLast5m: null, uptimeLast30m: null, uptimeLast1d: 80 });
    now += 25 * 60 * MIN;
    expect(stats.stats("ep").uptimeLast1d).toBeNull();
  });

  test("memory stays flat over a long synthetic run", () => {
    let now = T0;
    const stats = new LiveStats(() => now);
    const endpoints = Array.from({ length: 20 }, (_, i) => `p${i}/m`);
    let x = 1;
    const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
    const run = (seconds: number) => {
      for (let s = 0; s < seconds; s++, now += 1000) {
        for (let k = 0; k < 2; k++) {
          const ep = endpoints[Math.floor(rand() * endpoints.length)]!;
          stats.record(ep, rand() > 0.05, 50 + rand() * 2000, 5 + rand() * 200, now);
        }
      }
    };
    const heap = () => {
      Bun.gc(true);
      return process.memoryUsage().heapUsed;
    };
    run(26 * 3600); // past the day window: every slot exists
    const slotsAfterDay = stats.slotCount;
    expect(slotsAfterDay).toBeLessThanOrEqual(endpoints.length * 54);
    const before = heap();
    run(48 * 3600); // two more days, ~350k more requests
    expect(stats.slotCount).toBe(slotsAfterDay);
    expect(stats.size).toBe(endpoints.length);
    expect(heap() - before).toBeLessThan(2 * 1024 * 1024);
    const s = stats.stats(endpoints[0]!);
    expect(s.requestsLast30m).toBeGreaterThan(0);
    expect(s.uptimeLast1d).toBeGreaterThan(90);
  });
});
