import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { computeCost } from "../../../src/billing/cost";
import { decimalToNanos, nanosToUsd } from "../../../src/billing/money";
import { priceTable } from "../../../src/catalog/build-catalog";
import { emptyUsage, type IRUsage } from "../../../src/ir/types";

const usage = (u: Partial<IRUsage>): IRUsage => ({ ...emptyUsage(), ...u });

describe("computeCost", () => {
  const price = priceTable({
    prompt: "0.000003", // $3 / 1M
    completion: "0.000015", // $15 / 1M
    input_cache_read: "0.0000003", // $0.30 / 1M
    input_cache_write: "0.00000375", // $3.75 / 1M (5 minutes)
    input_cache_write_1h: "0.000006", // $6 / 1M (1 hour)
    request: "0.001",
    image: "0.0048",
    web_search: "0.01",
  });

  test("uncached prompt and completion", () => {
    // 1000 x 3000 + 500 x 15000 nano-dollars
    expect(computeCost(price, usage({ inputTokens: 1000, outputTokens: 500 }))).toEqual({
      prompt: 3_000_000,
      completion: 7_500_000,
      other: 1_000_000,
      total: 11_500_000,
    });
  });

  test("cache reads and 5-minute / 1-hour writes are priced apart, and not also as uncached prompt", () => {
    // input 10000 = 6000 uncached + 3000 read + 1000 written (400 of them for 1h)
    const c = computeCost(price, usage({ inputTokens: 10_000, cachedTokens: 3_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 400, outputTokens: 0 }));
    // 6000*3000 + 3000*300 + 600*3750 + 400*6000 = 18e6 + 0.9e6 + 2.25e6 + 2.4e6
    expect(c.prompt).toBe(23_550_000);
    expect(c.total).toBe(23_550_000 + 1_000_000);
  });

  test("images, web searches and the per-request price", () => {
    const c = computeCost(price, usage({ inputTokens: 0, outputTokens: 0, webSearchRequests: 2 }), { images: 3 });
    expect(c.prompt).toBe(3 * 4_800_000);
    expect(c.other).toBe(1_000_000 + 2 * 10_000_000);
  });

  test("reasoning tokens are completion tokens unless internal_reasoning is priced", () => {
    expect(computeCost(price, usage({ outputTokens: 100, reasoningTokens: 40 })).completion).toBe(100 * 15_000);
    const apart = priceTable({ completion: "0.00001", internal_reasoning: "0.000002" });
    expect(computeCost(apart, usage({ outputTokens: 100, reasoningTokens: 40 })).completion).toBe(60 * 10_000 + 40 * 2_000);
  });

  test("more cached than prompt tokens never goes negative", () => {
    const c = computeCost(price, usage({ inputTokens: 100, cachedTokens: 500 }));
    expect(c.prompt).toBe(500 * 300);
    expect(c.total).toBeGreaterThanOrEqual(0);
  });

  test("decimal strings convert exactly", () => {
    expect(decimalToNanos("0.000001")).toBe(1000);
    expect(decimalToNanos("0.0000000375")).toBe(37.5);
    expect(decimalToNanos(undefined)).toBe(0);
    expect(nanosToUsd(11_500_000)).toBe(0.0115);
  });

  test("property: cost is a non-negative integer, monotone in every token count", () => {
    const nat = fc.integer({ min: 0, max: 2_000_000 });
    fc.assert(
      fc.property(nat, nat, nat, nat, nat, (input, cached, writes, output, extra) => {
        const u = usage({ inputTokens: input, cachedTokens: cached, cacheWriteTokens: writes, outputTokens: output });
        const c = computeCost(price, u);
        expect(Number.isInteger(c.total)).toBe(true);
        expect(c.total).toBeGreaterThanOrEqual(0);
        expect(computeCost(price, { ...u, outputTokens: output + extra }).total).toBeGreaterThanOrEqual(c.total);
        expect(computeCost(price, { ...u, inputTokens: input + extra }).total).toBeGreaterThanOrEqual(c.total);
      }),
    );
  });
});
