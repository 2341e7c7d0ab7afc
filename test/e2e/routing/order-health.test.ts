import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { hi, META, ROUTING, type RoutingHarness, startRoutingHarness, tries } from "./setup";

let h: RoutingHarness;
beforeAll(async () => {
  h = await startRoutingHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

async function attempts(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Array<[string, number]>> {
  const res = await h.chat(body, { ...META, ...headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${text}`);
  return tries(JSON.parse(text));
}

describe("provider.order", () => {
  test("ordered providers first, the rest after", async () => {
    expect(await attempts(hi("r/m", { provider: { order: ["pb", "pa"] } }))).toEqual([["pb", 200]]);
    h.pb.enqueue({ status: 500 });
    expect(await attempts(hi("r/m", { provider: { order: ["pb"] } }))).toEqual([
      ["pb", 500],
      ["pa", 200],
    ]);
  });

  test("allow_fallbacks false stops after the ordered providers", async () => {
    h.pb.enqueue({ status: 500, errorBody: { error: { message: "b down" } } });
    const res = await h.chat(hi("r/m", { provider: { order: ["pb"], allow_fallbacks: false } }));
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error.metadata.provider_name).toBe("pb");
    expect(h.pa.requests).toHaveLength(0);
  });

  test("allow_fallbacks false without order: only the first choice", async () => {
    h.pa.enqueue({ status: 500 });
    const res = await h.chat(hi("r/m", { provider: { allow_fallbacks: false } }));
    expect(res.status).toBe(502);
    expect(h.pb.requests).toHaveLength(0);
  });

  test("filters leaving nothing: 503 naming the filter", async () => {
    const res = await h.chat(hi("r/m", { provider: { only: ["pc"] } }));
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.message).toBe(
      "No endpoint satisfies the routing requirements for r/m: provider.only removed pa/up-a (not in [pc]); provider.only removed pb/up-b (not in [pc])",
    );
  });
});

describe("provider.sort", () => {
  test("price puts the cheaper endpoint first whatever the catalog order", async () => {
    // r/priced lists dear pb first; the pinned random picks it by default
    expect(await attempts(hi("r/priced"))).toEqual([["pb", 200]]);
    expect(await attempts(hi("r/priced", { provider: { sort: "price" } }))).toEqual([["pa", 200]]);
    expect(await attempts(hi("r/priced", { provider: { sort: { by: "price" } } }))).toEqual([["pa", 200]]);
  });

  test("latency, throughput and exacto follow this gateway's own figures", async () => {
    // pa always answers in ~150 ms, pb at once
    h.pa.setHandler(() => ({ delayMs: 150, text: "slow", usage: { input: 5, output: 5 } }));
    expect(await attempts(hi("r/m", { provider: { order: ["pa"] } }))).toEqual([["pa", 200]]);
    expect(await attempts(hi("r/m", { provider: { order: ["pb"] } }))).toEqual([["pb", 200]]);

    expect(await attempts(hi("r/m"))).toEqual([["pa", 200]]);
    expect(await attempts(hi("r/m", { provider: { sort: "latency" } }))).toEqual([["pb", 200]]);
    expect(await attempts(hi("r/m", { provider: { sort: "throughput" } }))).toEqual([["pb", 200]]);
    // preferred_max_latency (seconds) moves slow pa to the back
    expect(await attempts(hi("r/m", { provider: { preferred_max_latency: 0.1 } }))).toEqual([["pb", 200]]);
    expect(await attempts(hi("r/m", { provider: { preferred_max_latency: 5 } }))).toEqual([["pa", 200]]);

    const pa = h.gw.ctx.router.stats.stats("pa/up-a");
    expect(pa.latencyLast30m!.p50).toBeGreaterThan(150 * 0.875);
    expect(pa.uptimeLast30m).toBe(100);
  });

  test("exacto prefers the higher success rate", async () => {
    h.pa.enqueue({ status: 500 });
    expect(await attempts(hi("r/m"))).toEqual([
      ["pa", 500],
      ["pb", 200],
    ]);
    expect(h.gw.ctx.router.stats.stats("pa/up-a").uptimeLast30m).toBe(0);
    expect(await attempts(hi("r/m", { provider: { sort: "exacto" } }))).toEqual([["pb", 200]]);
  });
});

describe("circuit breaker", () => {
  const failTwice = async () => {
    for (let i = 0; i < ROUTING.circuit_failures; i++) {
      h.pa.enqueue({ status: 500 });
      expect(await attempts(hi())).toEqual([
        ["pa", 500],
        ["pb", 200],
      ]);
    }
  };

  test("opens after circuit_failures, goes last, then gets one probe that closes it", async () => {
    await failTwice();
    expect(h.gw.ctx.router.circuits.health("pa/up-a")).toBe("open");
    // open: last, not away
    expect(await attempts(hi())).toEqual([["pb", 200]]);
    h.pb.enqueue({ status: 500 });
    expect(await attempts(hi())).toEqual([
      ["pb", 500],
      ["pa", 200],
    ]);
    expect(h.pa.requests).toHaveLength(3);

    h.reset();
    await failTwice();
    await Bun.sleep(ROUTING.circuit_cooldown_ms + 20);
    expect(h.gw.ctx.router.circuits.health("pa/up-a")).toBe("probe");
    expect(await attempts(hi())).toEqual([["pa", 200]]);
    expect(h.gw.ctx.router.circuits.health("pa/up-a")).toBe("healthy");
    expect(await attempts(hi())).toEqual([["pa", 200]]);
  });

  test("a failed probe reopens it", async () => {
    await failTwice();
    await Bun.sleep(ROUTING.circuit_cooldown_ms + 20);
    h.pa.enqueue({ status: 500 });
    expect(await attempts(hi())).toEqual([
      ["pa", 500],
      ["pb", 200],
    ]);
    expect(h.gw.ctx.router.circuits.health("pa/up-a")).toBe("open");
    expect(await attempts(hi())).toEqual([["pb", 200]]);
  });

  test("only one request probes at a time", async () => {
    await failTwice();
    await Bun.sleep(ROUTING.circuit_cooldown_ms + 20);
    h.pa.enqueue({ delayMs: 100 });
    const [x, y] = await Promise.all([attempts(hi()), attempts(hi())]);
    expect([x, y].map((t) => t[0]![0]).sort()).toEqual(["pa", "pb"]);
    expect(h.pa.requests).toHaveLength(3);
  });

  test("an upstream Retry-After holds the endpoint back", async () => {
    h.pa.enqueue({ status: 429, headers: { "retry-after": "60" } });
    expect(await attempts(hi())).toEqual([
      ["pa", 429],
      ["pb", 200],
    ]);
    expect(await attempts(hi())).toEqual([["pb", 200]]);
  });
});

describe("session stickiness", () => {
  const pickPb = () => (h.gw.ctx.router.random = () => 0.99); // pa weighs 4, pb 1: 0.99 lands on pb
  const pickPa = () => (h.gw.ctx.router.random = () => 0);

  test("body session_id keeps the session on the endpoint it used", async () => {
    pickPb();
    expect(await attempts(hi("r/m", { session_id: "s-1" }))).toEqual([["pb", 200]]);
    pickPa();
    expect(await attempts(hi("r/m"))).toEqual([["pa", 200]]);
    expect(await attempts(hi("r/m", { session_id: "s-1" }))).toEqual([["pb", 200]]);
    expect(await attempts(hi("r/m", { session_id: "s-other" }))).toEqual([["pa", 200]]);
  });

  test("x-session-id header when the body has none; the body wins", async () => {
    pickPb();
    expect(await attempts(hi("r/m"), { "x-session-id": "h-1" })).toEqual([["pb", 200]]);
    pickPa();
    expect(await attempts(hi("r/m"), { "x-session-id": "h-1" })).toEqual([["pb", 200]]);
    expect(await attempts(hi("r/m", { session_id: "b-1" }), { "x-session-id": "h-1" })).toEqual([["pa", 200]]);
  });

  test("only while that endpoint is healthy; then the session moves", async () => {
    pickPb();
    expect(await attempts(hi("r/m", { session_id: "s-2" }))).toEqual([["pb", 200]]);
    h.pb.enqueue({ status: 500 });
    expect(await attempts(hi("r/m", { session_id: "s-2" }))).toEqual([
      ["pb", 500],
      ["pa", 200],
    ]);
    // now on pa, even though the random would pick pb
    expect(await attempts(hi("r/m", { session_id: "s-2" }))).toEqual([["pa", 200]]);
    expect(h.gw.ctx.router.circuits.health("pb/up-b")).toBe("healthy");
  });

  test("the generation record keeps the session id", async () => {
    const res = await h.chat(hi("r/m", { session_id: "s-rec" }));
    expect(res.status).toBe(200);
    await res.text();
    const gen = await h.generation(res.headers.get("x-generation-id")!);
    expect(gen.session_id).toBe("s-rec");
  });
});
