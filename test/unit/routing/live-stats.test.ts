import { describe, expect, test } from "bun:test";
import { LiveStats } from "../../../src/catalog/live-stats";

const MIN = 60_000;
const T0 = 1_700_000_040_000; // a whole minute

function setup() {
  let now = T0;
  const stats = new LiveStats(() => now);
  return { stats, tick: (ms: number) => (now += ms), set: (t: number) => (now = t) };
}

/** within the histogram's ±12.5% bucket precision */
function near(actual: number | undefined, expected: number) {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected) / expected).toBeLessThanOrEqual(0.125);
}

describe("LiveStats percentiles", () => {
  test("no traffic: nulls", () => {
    const { stats } = setup();
    expect(stats.stats("x")).toEqual({
      latencyLast30m: null,
      throughputLast30m: null,
      uptimeLast5m: null,
      uptimeLast30m: null,
      uptimeLast1d: null,
      requestsLast30m: 0,
    });
  });

  test("scripted latencies 1..1000 ms give p50/p75/p90/p99 within ±12.5%", () => {
    const { stats } = setup();
    // shuffled so order cannot matter
    const values = Array.from({ length: 1000 }, (_, i) => ((i * 617) % 1000) + 1);
    for (const v of values) stats.record("x", true, v, null);
    const p = stats.stats("x").latencyLast30m!;
    near(p.p50, 500);
    near(p.p75, 750);
    near(p.p90, 900);
    near(p.p99, 990);
  });

  test("every single value is reported within ±12.5%", () => {
    for (let v = 1; v < 200_000; v = Math.ceil(v * 1.07)) {
      const { stats } = setup();
      stats.record("x", true, v, v);
      const s = stats.stats("x");
      near(s.latencyLast30m!.p50, v);
      near(s.throughputLast30m!.p99, v);
    }
  });

  test("a bimodal mix: p50 fast, p99 slow", () => {
    const { stats } = setup();
    for (let i = 0; i < 95; i++) stats.record("x", true, 100, 50);
    for (let i = 0; i < 5; i++) stats.record("x", true, 8000, 5);
    const s = stats.stats("x");
    near(s.latencyLast30m!.p50, 100);
    near(s.latencyLast30m!.p90, 100);
    near(s.latencyLast30m!.p99, 8000);
    near(s.throughputLast30m!.p50, 50);
    near(s.throughputLast30m!.p99, 50);
  });

  test("failed attempts, missing figures and zero throughput add no samples", () => {
    const { stats } = setup();
    stats.record("x", false, 5000, 1);
    stats.record("x", true, null, 0);
    stats.record("x", true, null, Number.POSITIVE_INFINITY);
    const s = stats.stats("x");
    expect(s.latencyLast30m).toBeNull();
    expect(s.throughputLast30m).toBeNull();
    expect(s.requestsLast30m).toBe(3);
  });
});

describe("LiveStats uptime", () => {
  test("falls with failures", () => {
    const { stats } = setup();
    for (let i = 0; i < 10; i++) stats.record("x", true, 100, 10);
    expect(stats.stats("x").uptimeLast30m).toBe(100);
    stats.record("x", false, null, null);
    stats.record("x", false, null, null);
    const s = stats.stats("x");
    expect(s.uptimeLast5m).toBe(83.33);
    expect(s.uptimeLast30m).toBe(83.33);
    expect(s.uptimeLast1d).toBe(83.33);
    expect(s.requestsLast30m).toBe(12);
  });

  test("endpoints are tracked apart", () => {
    const { stats } = setup();
    stats.record("a", true, 100, 10);
    stats.record("b", false, null, null);
    expect(stats.stats("a").uptimeLast30m).toBe(100);
    expect(stats.stats("b").uptimeLast30m).toBe(0);
  });
});

describe("LiveStats windows expire with the clock", () => {
  test("5 minutes, 30 minutes, 1 day", () => {
    const { stats, set } = setup();
    stats.record("x", false, null, null, T0);
    stats.record("x", true, 200, 10, T0);

    set(T0 + 5 * MIN - 1);
    expect(stats.stats("x").uptimeLast5m).toBe(50);
    set(T0 + 5 * MIN);
    expect(stats.stats("x").uptimeLast5m).toBeNull();
    expect(stats.stats("x").uptimeLast30m).toBe(50);

    set(T0 + 30 * MIN - 1);
    expect(stats.stats("x").latencyLast30m).not.toBeNull();
    expect(stats.stats("x").requestsLast30m).toBe(2);
    set(T0 + 30 * MIN);
    const s = stats.stats("x");
    expect(s.latencyLast30m).toBeNull();
    expect(s.throughputLast30m).toBeNull();
    expect(s.uptimeLast30m).toBeNull();
    expect(s.requestsLast30m).toBe(0);
    expect(s.uptimeLast1d).toBe(50);

    set(T0 + 25 * 60 * MIN);
    expect(stats.stats("x").uptimeLast1d).toBeNull();
  });

  test("a slot reused after the ring wraps starts empty", () => {
    const { stats, set } = setup();
    stats.record("x", false, null, null, T0);
    // 30 minutes later the same ring slot belongs to a new minute
    set(T0 + 30 * MIN);
    stats.record("x", true, 300, 10);
    const s = stats.stats("x");
    expect(s.uptimeLast30m).toBe(100);
    expect(s.requestsLast30m).toBe(1);
    near(s.latencyLast30m!.p50, 300);
  });

  test("only the last 30 minutes count towards latency", () => {
    const { stats, set } = setup();
    stats.record("x", true, 5000, null, T0);
    set(T0 + 20 * MIN);
    stats.record("x", true, 100, null);
    near(stats.stats("x").latencyLast30m!.p99, 5000);
    set(T0 + 31 * MIN);
    near(stats.stats("x").latencyLast30m!.p99, 100);
  });
});

describe("LiveStats memory", () => {
  test("1e6 records across 20 endpoints over three days keep a bounded footprint", () => {
    const { stats, set } = setup();
    const N = 1_000_000;
    const span = 3 * 24 * 60 * MIN;
    let maxSlots = 0;
    for (let i = 0; i < N; i++) {
      const at = T0 + Math.floor((i / N) * span);
      set(at);
      stats.record(`ep${i % 20}`, i % 7 !== 0, (i % 997) + 1, (i % 89) + 1, at);
      if (i % 50_000 === 0) maxSlots = Math.max(maxSlots, stats.slotCount);
    }
    expect(stats.size).toBe(20);
    // 30 minute slots + 24 hour slots per endpoint at most
    expect(maxSlots).toBeLessThanOrEqual(20 * 54);
    expect(stats.slotCount).toBe(20 * 54);
    const s = stats.stats("ep3");
    // the last 30 minutes hold ~1/144 of the run for each of 20 endpoints
    expect(s.requestsLast30m).toBeGreaterThan(300);
    expect(s.requestsLast30m).toBeLessThan(400);
    expect(s.uptimeLast1d).toBeGreaterThan(85);
    expect(s.uptimeLast1d).toBeLessThan(86.5);
  });
});
