import { describe, expect, test } from "bun:test";
import { DEFAULT_BACKOFF_SECONDS, defaultMaxAttempts, nextAttemptAt } from "../../../src/jobs/retry-schedule";

const backoffMs = DEFAULT_BACKOFF_SECONDS.map((s) => s * 1000);
const plan = (attempts: number, random = 0.5) => ({ attempts, maxAttempts: defaultMaxAttempts(backoffMs), backoffMs, now: 1_000_000, random: () => random });

describe("nextAttemptAt", () => {
  test("the default schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then dead", () => {
    expect(DEFAULT_BACKOFF_SECONDS).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]);
    expect(defaultMaxAttempts(backoffMs)).toBe(10);
    const delays = Array.from({ length: 10 }, (_, i) => nextAttemptAt(plan(i + 1)));
    expect(delays.map((at) => (at === null ? null : at - 1_000_000))).toEqual([...backoffMs, null]);
  });

  test("jitter spreads each delay by ±10 %", () => {
    expect(nextAttemptAt(plan(1, 0))! - 1_000_000).toBe(4500);
    expect(nextAttemptAt(plan(1, 0.999999))! - 1_000_000).toBe(5500);
    expect(nextAttemptAt(plan(2, 0))! - 1_000_000).toBe(270_000);
  });

  test("a handler's Retry-After is honoured as given, and still costs an attempt", () => {
    expect(nextAttemptAt({ ...plan(1), retryAfterMs: 42_000 })! - 1_000_000).toBe(42_000);
    expect(nextAttemptAt({ ...plan(10), retryAfterMs: 42_000 })).toBeNull();
  });

  test("a per-kind limit ends it sooner; a recurring job waits no longer than its period", () => {
    expect(nextAttemptAt({ ...plan(3), maxAttempts: 3 })).toBeNull();
    expect(nextAttemptAt({ ...plan(2), maxAttempts: 3 })).not.toBeNull();
    expect(nextAttemptAt({ ...plan(5), capMs: 60_000 })! - 1_000_000).toBe(60_000);
  });

  test("past the end of a short list the last step repeats", () => {
    expect(nextAttemptAt({ attempts: 5, maxAttempts: 9, backoffMs: [10, 20], now: 0, random: () => 0.5 })).toBe(20);
  });
});
