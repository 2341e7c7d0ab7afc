// The rate counters' contract, in memory and through Redis (two instances on one prefix, each
// call going to the next instance in turn): limits at their bound and one past it, windows,
// token corrections, slots, atomicity under concurrency, and a property test against a model.
// Redis alone: slots of an instance that died expire with their lease, live ones are renewed,
// and an unreachable Redis leaves each instance counting alone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { silentLogger } from "../../src/logger";
import { createSharedState, type RateAcquire, type RateCounters, type RateLimits } from "../../src/shared-state";
import { closedPort, describeRedis, recordingLogger, redisInstances } from "../support/redis";

const MINUTE = 60_000;
const T0 = 1_700_000_040_000;
const NONE: RateLimits = { rpm: null, tpm: null, concurrency: null };

let leases = 0;
function acquireOf(subject: string, limits: Partial<RateLimits>, at = T0, tokens = 0, lease = `g${++leases}`): RateAcquire {
  const window = Math.floor(at / MINUTE);
  return { subject, lease, limits: { ...NONE, ...limits }, tokens, window, windowEndsAt: (window + 1) * MINUTE, now: at, leaseExpiresAt: at + 10 * MINUTE };
}
const releaseOf = (a: RateAcquire, delta = 0, at = a.now) => ({
  subject: a.subject,
  lease: a.lease,
  heldSlot: a.limits.concurrency !== null,
  tokens: delta === 0 ? null : { window: Math.floor(at / MINUTE), windowEndsAt: (Math.floor(at / MINUTE) + 1) * MINUTE, delta },
  now: at,
});

/** Counters to test: one or several views of the same counts, used in turn. */
type Views = { counters: RateCounters[]; close(): Promise<void> };

function contract(label: string, open: () => Promise<Views>) {
  describe(`rate counters: ${label}`, () => {
    let views: Views;
    let turn = 0;
    // an instance releases what it admitted itself: a request ends where it began
    const holders = new Map<string, RateCounters>();
    const acquire = (a: RateAcquire) => {
      const counters = views.counters[turn++ % views.counters.length]!;
      holders.set(a.lease, counters);
      return counters.acquire(a);
    };
    const release = (r: ReturnType<typeof releaseOf>) => holders.get(r.lease)!.release(r);
    const next = () => ({ acquire, release });
    const subject = () => `key-${crypto.randomUUID()}`;
    beforeAll(async () => {
      views = await open();
    });
    afterAll(() => views.close());

    test("rpm: N requests admitted, the N+1th refused with what was counted; the next window starts at zero", async () => {
      const s = subject();
      const verdicts = [];
      for (let i = 0; i < 4; i++) verdicts.push(await next().acquire(acquireOf(s, { rpm: 3 }, T0 + i)));
      expect(verdicts).toEqual([
        { admitted: true, used: { requests: 0, tokens: 0, inFlight: 0 } },
        { admitted: true, used: { requests: 1, tokens: 0, inFlight: 0 } },
        { admitted: true, used: { requests: 2, tokens: 0, inFlight: 0 } },
        { admitted: false, used: { requests: 3, tokens: 0, inFlight: 0 } },
      ]);
      expect(await next().acquire(acquireOf(s, { rpm: 3 }, T0 + MINUTE))).toEqual({ admitted: true, used: { requests: 0, tokens: 0, inFlight: 0 } });
    });

    test("tpm: tokens count at once; a release corrects them, never below zero", async () => {
      const s = subject();
      const first = acquireOf(s, { tpm: 100 }, T0, 40);
      expect((await next().acquire(first)).admitted).toBe(true);
      expect(await next().acquire(acquireOf(s, { tpm: 100 }, T0, 61))).toEqual({ admitted: false, used: { requests: 0, tokens: 40, inFlight: 0 } });
      await next().release(releaseOf(first, 20));
      expect(await next().acquire(acquireOf(s, { tpm: 100 }, T0, 40))).toEqual({ admitted: true, used: { requests: 0, tokens: 60, inFlight: 0 } });
      const big = acquireOf(s, { tpm: 100 }, T0, 0);
      await next().acquire(big);
      await next().release(releaseOf(big, -500));
      expect(await next().acquire(acquireOf(s, { tpm: 100 }, T0, 100))).toEqual({ admitted: true, used: { requests: 0, tokens: 0, inFlight: 0 } });
    });

    test("concurrency: N slots, the N+1th refused; a release frees one; a refused request holds none", async () => {
      const s = subject();
      const held = [acquireOf(s, { concurrency: 2 }), acquireOf(s, { concurrency: 2 })];
      for (const a of held) expect((await next().acquire(a)).admitted).toBe(true);
      const refused = acquireOf(s, { concurrency: 2 });
      expect(await next().acquire(refused)).toEqual({ admitted: false, used: { requests: 0, tokens: 0, inFlight: 2 } });
      await next().release(releaseOf(refused));
      expect((await next().acquire(acquireOf(s, { concurrency: 2 }))).admitted).toBe(false);
      await next().release(releaseOf(held[0]!));
      expect(await next().acquire(acquireOf(s, { concurrency: 2 }))).toEqual({ admitted: true, used: { requests: 0, tokens: 0, inFlight: 1 } });
    });

    test("a refusal by one limit counts nothing under the others", async () => {
      const s = subject();
      expect((await next().acquire(acquireOf(s, { rpm: 5, tpm: 10 }, T0, 8))).admitted).toBe(true);
      for (let i = 0; i < 3; i++) expect((await next().acquire(acquireOf(s, { rpm: 5, tpm: 10 }, T0, 8))).admitted).toBe(false);
      expect(await next().acquire(acquireOf(s, { rpm: 5, tpm: 10 }, T0, 2))).toEqual({ admitted: true, used: { requests: 1, tokens: 8, inFlight: 0 } });
    });

    test("200 requests at once against rpm 10 and concurrency 25: exactly 10 admitted; then 25 slots exactly", async () => {
      const s = subject();
      const rpm = await Promise.all(Array.from({ length: 200 }, (_, i) => next().acquire(acquireOf(s, { rpm: 10 }, T0 + i))));
      expect(rpm.filter((v) => v.admitted).length).toBe(10);
      const t = subject();
      const slots = await Promise.all(Array.from({ length: 200 }, () => next().acquire(acquireOf(t, { concurrency: 25 }))));
      expect(slots.filter((v) => v.admitted).length).toBe(25);
    });

    test("property: any sequence of acquires and releases agrees with a model of the counts", async () => {
      const op = fc.oneof(
        fc.record({ kind: fc.constant("acquire" as const), tokens: fc.integer({ min: 0, max: 40 }), minute: fc.integer({ min: 0, max: 2 }) }),
        fc.record({ kind: fc.constant("release" as const), which: fc.nat(), used: fc.integer({ min: 0, max: 60 }) }),
      );
      const limits = fc.record({
        rpm: fc.option(fc.integer({ min: 1, max: 6 })),
        tpm: fc.option(fc.integer({ min: 1, max: 120 })),
        concurrency: fc.option(fc.integer({ min: 1, max: 3 })),
      });
      await fc.assert(
        fc.asyncProperty(limits, fc.array(op, { maxLength: 25 }), async (lim, ops) => {
          const s = subject();
          const model = { minute: 0, requests: 0, tokens: 0, inFlight: 0 };
          const open: Array<{ a: RateAcquire; minute: number }> = [];
          let minute = 0;
          for (const o of ops) {
            if (o.kind === "acquire") {
              minute = Math.max(minute, o.minute);
              if (minute !== model.minute) Object.assign(model, { minute, requests: 0, tokens: 0 });
              const a = acquireOf(s, lim, T0 + minute * MINUTE, o.tokens);
              const verdict = await next().acquire(a);
              const fits =
                (lim.rpm === null || model.requests + 1 <= lim.rpm) &&
                (lim.tpm === null || model.tokens + o.tokens <= lim.tpm) &&
                (lim.concurrency === null || model.inFlight + 1 <= lim.concurrency);
              expect(verdict).toEqual({
                admitted: fits,
                used: {
                  requests: lim.rpm === null ? 0 : model.requests,
                  tokens: lim.tpm === null ? 0 : model.tokens,
                  inFlight: lim.concurrency === null ? 0 : model.inFlight,
                },
              });
              if (!fits) continue;
              if (lim.rpm !== null) model.requests++;
              if (lim.tpm !== null) model.tokens += o.tokens;
              if (lim.concurrency !== null) model.inFlight++;
              open.push({ a, minute });
            } else if (open.length > 0) {
              const [{ a }] = open.splice(o.which % open.length, 1) as [{ a: RateAcquire; minute: number }];
              const delta = lim.tpm === null ? 0 : o.used - a.tokens;
              // the release happens in the current minute: a correction only counts there
              const applies = Math.floor(a.now / MINUTE) === T0 / MINUTE + minute;
              await next().release(releaseOf(a, applies ? delta : 0, T0 + minute * MINUTE));
              if (applies && lim.tpm !== null) model.tokens = Math.max(0, model.tokens + delta);
              if (lim.concurrency !== null) model.inFlight--;
            }
          }
        }),
        { numRuns: 60 },
      );
    });
  });
}

contract("in memory", async () => {
  const shared = await createSharedState({ prefix: "gw-test:rates:", instanceId: "solo", logger: silentLogger });
  return { counters: [shared.rates], close: () => shared.close() };
});

describeRedis("rate counters through Redis", (url) => {
  const instance = redisInstances(url, "rates");

  contract("two instances sharing one Redis", async () => {
    const [a, b] = [await instance(), await instance()];
    return { counters: [a.rates, b.rates], close: async () => {} };
  });

  test("the slot of an instance that stopped renewing is free one lease later, not before", async () => {
    const [a, b] = [await instance(), await instance()];
    const s = `key-${crypto.randomUUID()}`;
    const held = { ...acquireOf(s, { concurrency: 1 }), leaseExpiresAt: T0 + 5_000 };
    expect((await a.rates.acquire(held)).admitted).toBe(true);
    await a.close(); // the instance dies holding the slot: nobody releases it
    expect((await b.rates.acquire(acquireOf(s, { concurrency: 1 }, T0 + 4_999))).admitted).toBe(false);
    expect(await b.rates.acquire(acquireOf(s, { concurrency: 1 }, T0 + 5_000))).toEqual({ admitted: true, used: { requests: 0, tokens: 0, inFlight: 0 } });
  });

  test("a live instance renews its slots, so a request longer than a lease keeps its slot", async () => {
    const leaseMs = 300;
    const [a, b] = [await instance({ rateLeaseMs: leaseMs }), await instance({ rateLeaseMs: leaseMs })];
    const s = `key-${crypto.randomUUID()}`;
    const long = { ...acquireOf(s, { concurrency: 1 }, Date.now()), leaseExpiresAt: Date.now() + leaseMs };
    expect((await a.rates.acquire(long)).admitted).toBe(true);
    await Bun.sleep(3 * leaseMs);
    expect((await b.rates.acquire(acquireOf(s, { concurrency: 1 }, Date.now()))).admitted).toBe(false);
    await a.rates.release(releaseOf(long));
    expect((await b.rates.acquire(acquireOf(s, { concurrency: 1 }, Date.now()))).admitted).toBe(true);
  });

  test("an unreachable Redis: each instance counts alone, and says so once", async () => {
    const logger = recordingLogger();
    const alone = await instance({ url: `redis://127.0.0.1:${closedPort()}`, logger });
    const s = `key-${crypto.randomUUID()}`;
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push((await alone.rates.acquire(acquireOf(s, { rpm: 2 }))).admitted);
    expect(verdicts).toEqual([true, true, false]);
    expect(logger.lines.filter((l) => l.msg.startsWith("redis unreachable: rate limits"))).toEqual([
      { level: "warn", msg: "redis unreachable: rate limits count on this instance alone until it is back" },
    ]);
  });
});
