import { describe, expect, test } from "bun:test";
import { effectiveRateLimit, type RateTicket, rateRelease, rateWindow } from "../../../src/billing/rate-limit";
import { rateLimited } from "../../../src/billing/rate-limit-error";

const T0 = 1_700_000_040_000; // a whole minute
const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
const ticket = (limits: Partial<RateTicket["limits"]>, tokens = 30): RateTicket => ({
  subject: "h",
  lease: "gen-1",
  limits: { rpm: null, tpm: null, concurrency: null, ...limits },
  tokens,
  window: T0 / 60_000,
});

describe("rate limit windows and limits", () => {
  test("fixed UTC minutes: the first and last millisecond of a minute share its window", () => {
    expect(rateWindow(T0)).toEqual({ number: T0 / 60_000, endsAt: T0 + 60_000 });
    expect(rateWindow(T0 + 59_999)).toEqual({ number: T0 / 60_000, endsAt: T0 + 60_000 });
    expect(rateWindow(T0 + 60_000)).toEqual({ number: T0 / 60_000 + 1, endsAt: T0 + 120_000 });
  });

  test("a key's own limits win, limit by limit; the workspace fills the rest", () => {
    expect(effectiveRateLimit({ rpm: 5, tpm: null, concurrency: null }, { rpm: 1, tpm: 100, concurrency: null })).toEqual({
      rpm: 5,
      tpm: 100,
      concurrency: null,
    });
    expect(effectiveRateLimit({ rpm: null, tpm: null, concurrency: null }, { rpm: null, tpm: null, concurrency: 2 })).toEqual({
      rpm: null,
      tpm: null,
      concurrency: 2,
    });
  });
});

describe("rateRelease: what a request gives back when it ends", () => {
  test("in its admission window: the slot, and the difference between usage and estimate either way", () => {
    expect(rateRelease(ticket({ tpm: 100, concurrency: 1 }), usage(10, 5), T0 + 1_000)).toEqual({
      subject: "h",
      lease: "gen-1",
      heldSlot: true,
      tokens: { window: T0 / 60_000, windowEndsAt: T0 + 60_000, delta: -15 },
      now: T0 + 1_000,
    });
    expect(rateRelease(ticket({ tpm: 100 }), usage(40, 20), T0 + 1_000).tokens).toEqual({ window: T0 / 60_000, windowEndsAt: T0 + 60_000, delta: 30 });
  });

  test("after its window: only tokens beyond the estimate, counted in the window where it ended", () => {
    expect(rateRelease(ticket({ tpm: 100 }), usage(40, 20), T0 + 61_000).tokens).toEqual({ window: T0 / 60_000 + 1, windowEndsAt: T0 + 120_000, delta: 30 });
    expect(rateRelease(ticket({ tpm: 100 }), usage(10, 5), T0 + 61_000).tokens).toBeNull();
  });

  test("nothing served gives the whole estimate back; no tpm corrects nothing; no concurrency frees no slot", () => {
    expect(rateRelease(ticket({ tpm: 100 }), null, T0).tokens?.delta).toBe(-30);
    expect(rateRelease(ticket({ rpm: 3 }), usage(10, 5), T0)).toEqual({ subject: "h", lease: "gen-1", heldSlot: false, tokens: null, now: T0 });
  });
});

describe("the 429", () => {
  test("names every limit exceeded; Retry-After is the later of the window reset and the concurrency wait", () => {
    const err = rateLimited({ rpm: 2, tpm: 50, concurrency: 1 }, { requests: 2, tokens: 40, inFlight: 1 }, 20, 41_001);
    expect(err.status).toBe(429);
    expect(err.message).toBe(
      "Rate limit exceeded: this key allows 2 requests per minute and 50 tokens per minute (40 used, this request needs about 20) and 1 requests at once; retry after 42 s",
    );
    expect(err.metadata).toEqual({ limit_source: "key_rate_limit", exceeded: ["rpm", "tpm", "concurrency"] });
    expect(err.headers).toEqual({
      "retry-after": "42",
      "x-ratelimit-limit-requests": "2",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "42s",
      "x-ratelimit-limit-tokens": "50",
      "x-ratelimit-remaining-tokens": "10",
      "x-ratelimit-reset-tokens": "42s",
      "x-ratelimit-limit-concurrency": "1",
      "x-ratelimit-remaining-concurrency": "0",
    });
  });

  test("the last millisecond of a window still says 1 s, never 0", () => {
    expect(rateLimited({ rpm: 1, tpm: null, concurrency: null }, { requests: 1, tokens: 0, inFlight: 0 }, 0, 1).headers).toEqual({
      "retry-after": "1",
      "x-ratelimit-limit-requests": "1",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1s",
    });
  });
});
