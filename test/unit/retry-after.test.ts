/** The one Retry-After reader: the tables of the three readers it replaced, under one rule. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { retryAfterMs, retryAfterMsHeader, retryAfterSeconds } from "../../src/retry-after";

describe("retryAfterMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  test("delay-seconds, a fraction too", () => {
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("0.5", now)).toBe(500);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
  });
  test("HTTP date: from now, never negative", () => {
    expect(retryAfterMs("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0);
  });
  test("missing, blank, negative or garbage is no hint", () => {
    for (const value of [undefined, null, "", "  ", "soon", "-2", "-5", "1e3", "0x10"]) expect(retryAfterMs(value, now)).toBeUndefined();
  });
  test("property: any answer is a finite, non-negative number of milliseconds", () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = retryAfterMs(value, now);
        return ms === undefined || (Number.isFinite(ms) && ms >= 0);
      }),
    );
  });
});

describe("retryAfterSeconds", () => {
  const NOW = Date.parse("2026-11-23T12:00:00Z");
  test.each([
    ["17", 17],
    [" 0 ", 0],
    ["1.2", 2],
    ["Mon, 23 Nov 2026 12:00:30 GMT", 30],
    ["Mon, 23 Nov 2026 11:59:00 GMT", 0],
    ["soon", undefined],
    ["-5", undefined],
    ["", undefined],
  ] as const)("%j → %p", (value, seconds) => expect(retryAfterSeconds(value, NOW)).toBe(seconds));
  test("absent → undefined", () => expect(retryAfterSeconds(null, NOW)).toBeUndefined());
});

describe("retryAfterMsHeader (OpenAI's and Azure OpenAI's retry-after-ms)", () => {
  test("milliseconds as sent, a fraction rounded", () => {
    expect(retryAfterMsHeader("1500")).toBe(1500);
    expect(retryAfterMsHeader(" 0 ")).toBe(0);
    expect(retryAfterMsHeader("250.6")).toBe(251);
  });
  test("missing, blank, negative, a date or garbage is no hint", () => {
    for (const value of [undefined, null, "", " ", "-5", "soon", "1e3", "Wed, 01 Jan 2025 00:00:10 GMT"]) expect(retryAfterMsHeader(value)).toBeUndefined();
  });
});
