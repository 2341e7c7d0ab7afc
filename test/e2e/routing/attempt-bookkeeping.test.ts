// Attempt bookkeeping: what the served endpoint is measured on, how failed tries are recorded,
// and the half-open probe slot.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { hi, META, ROUTING, type RoutingHarness, startRoutingHarness, tries } from "./setup";

let h: RoutingHarness;
beforeAll(async () => {
  h = await startRoutingHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

async function body(b: Record<string, unknown>) {
  const res = await h.chat(b, META);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${text}`);
  return JSON.parse(text);
}

describe("probe slots", () => {
  test("a probe claimed but never tried (an earlier candidate served) is released after a cooldown", async () => {
    // open pa's circuit
    for (let i = 0; i < ROUTING.circuit_failures; i++) {
      h.pa.enqueue({ status: 500 });
      await body(hi());
    }
    await Bun.sleep(ROUTING.circuit_cooldown_ms + 20);
    // pb first by order: pa (now half-open) is planned second and never reached
    expect(tries(await body(hi("r/m", { provider: { order: ["pb", "pa"] } })))).toEqual([["pb", 200]]);
    // the unreported probe must not keep pa out for good
    await Bun.sleep(ROUTING.circuit_cooldown_ms + 20);
    expect(h.gw.ctx.router.circuits.health("pa/up-a")).toBe("probe");
    expect(tries(await body(hi()))).toEqual([["pa", 200]]);
    expect(h.gw.ctx.router.circuits.health("pa/up-a")).toBe("healthy");
  });
});

describe("live figures of the served endpoint", () => {
  // InferenceRun.observe measures from the start of the run, so the time spent on failed
  // candidates before it is charged to the endpoint that served.
  test("latency excludes the failed attempts before it", async () => {
    h.pa.enqueue({ delayMs: 200, status: 500 });
    expect(tries(await body(hi()))).toEqual([
      ["pa", 500],
      ["pb", 200],
    ]);
    const pb = h.gw.ctx.router.stats.stats("pb/up-b");
    expect(pb.latencyLast30m!.p50).toBeLessThan(100);
  });
});

describe("attempt statuses", () => {
  // attemptUpstream reports an unparseable 200 body with the upstream's status (200), so a
  // failed try reads as a success in service_metadata and provider_responses.
  test("an invalid body is recorded as a failed try, not as 200", async () => {
    h.pa.enqueue({ invalidBody: true });
    const b = await body(hi());
    expect(tries(b)).toEqual([
      ["pa", 502],
      ["pb", 200],
    ]);
  });
});
