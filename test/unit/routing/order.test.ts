import { describe, expect, test } from "bun:test";
import { orderEndpoints } from "../../../src/gateway/routing/order";
import { planRoute } from "../../../src/gateway/routing/plan";
import { fakeHealth, fakeStats, ids, model, orderCtx, planInput, scripted } from "./fixtures";

// unit prices (prompt + completion, nano-dollars a token): cheap 3000, mid 6000, pricey 18000
const m = model("m/one", [
  { provider: "pricey", prompt: "0.000003", completion: "0.000015" },
  { provider: "cheap", prompt: "0.000001", completion: "0.000002" },
  { provider: "mid", prompt: "0.000002", completion: "0.000004" },
]);
const E = m.endpoints;

describe("price-weighted random (no order, no sort)", () => {
  // weights 1/price²: pricey 1, cheap 36, mid 9 (of 46), cumulative in catalog order:
  // pricey [0, 1), cheap [1, 37), mid [37, 46)
  test("the injected random picks along the cumulative weights", () => {
    // 0.5*46 = 23 -> cheap; of pricey 1 / mid 9: 0.5*10 = 5 -> mid
    expect(ids(orderEndpoints(E, orderCtx({ random: () => 0.5 })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
    // 0.81*46 = 37.26 -> mid; of pricey 1 / cheap 36: 0.81*37 = 29.97 -> cheap
    expect(ids(orderEndpoints(E, orderCtx({ random: () => 0.81 })))).toEqual(["mid/up", "cheap/up", "pricey/up"]);
    // 0.01*46 = 0.46 -> pricey; then 0.99*45 = 44.55 -> mid
    expect(ids(orderEndpoints(E, orderCtx({ random: scripted([0.01, 0.99]) })))).toEqual(["pricey/up", "mid/up", "cheap/up"]);
  });

  test("first picks follow the inverse-square price shares", () => {
    const counts: Record<string, number> = {};
    const N = 4600;
    for (let i = 0; i < N; i++) {
      const first = orderEndpoints(E, orderCtx({ random: () => (i + 0.5) / N }))[0]!.id;
      counts[first] = (counts[first] ?? 0) + 1;
    }
    expect(counts).toEqual({ "cheap/up": 3600, "mid/up": 900, "pricey/up": 100 });
  });

  test("a free endpoint weighs like a tenth of the cheapest paid price", () => {
    const f = model("m/free", [
      { provider: "paid", prompt: "0.000001", completion: "0.000002" },
      { provider: "free", prompt: "0", completion: "0" },
    ]);
    // paid 1/3000², free 1/300²: free takes 100/101 of first picks
    expect(ids(orderEndpoints(f.endpoints, orderCtx({ random: () => 0.995 })))).toEqual(["free/up", "paid/up"]);
    expect(ids(orderEndpoints(f.endpoints, orderCtx({ random: () => 0.0098 })))).toEqual(["paid/up", "free/up"]);
    expect(ids(orderEndpoints(f.endpoints, orderCtx({ random: () => 0.01 })))).toEqual(["free/up", "paid/up"]);
  });

  test("all free: uniform", () => {
    const f = model("m/free", [
      { provider: "a", prompt: "0", completion: "0" },
      { provider: "b", prompt: "0", completion: "0" },
    ]);
    expect(ids(orderEndpoints(f.endpoints, orderCtx({ random: () => 0.49 })))).toEqual(["a/up", "b/up"]);
    expect(ids(orderEndpoints(f.endpoints, orderCtx({ random: () => 0.51 })))).toEqual(["b/up", "a/up"]);
  });
});

describe("provider.order", () => {
  test("ordered providers first in order (slug or name, any case), the rest after", () => {
    expect(ids(orderEndpoints(E, orderCtx({ prefs: { order: ["MID", "Pricey"] } })))).toEqual(["mid/up", "pricey/up", "cheap/up"]);
  });

  test("allow_fallbacks false: only the ordered providers", () => {
    expect(ids(orderEndpoints(E, orderCtx({ prefs: { order: ["mid", "pricey"], allow_fallbacks: false } })))).toEqual(["mid/up", "pricey/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ prefs: { order: ["nobody"], allow_fallbacks: false } })))).toEqual([]);
  });

  test("order beats sort", () => {
    expect(ids(orderEndpoints(E, orderCtx({ prefs: { order: ["pricey"], sort: "price" } })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
  });

  test("open circuits go last, even when ordered first", () => {
    const health = fakeHealth({ "mid/up": "open" });
    expect(ids(orderEndpoints(E, orderCtx({ health, prefs: { order: ["mid", "pricey"] } })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ health, prefs: { order: ["mid", "pricey"], allow_fallbacks: false } })))).toEqual(["pricey/up", "mid/up"]);
  });
});

describe("provider.sort", () => {
  const stats = fakeStats({
    "pricey/up": { latency: 200, throughput: 150, uptime: 99.5 },
    "cheap/up": { latency: 900, throughput: 40, uptime: 90 },
    // mid has no figures yet: it goes after those that have them
  });

  test("price", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { sort: "price" } })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
  });
  test("latency (lowest p50 first)", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { sort: "latency" } })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
  });
  test("throughput (highest p50 first)", () => {
    const s = fakeStats({ "pricey/up": { throughput: 20 }, "cheap/up": { throughput: 40 }, "mid/up": { throughput: 30 } });
    expect(ids(orderEndpoints(E, orderCtx({ stats: s, prefs: { sort: "throughput" } })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
  });
  test("exacto (highest success rate first)", () => {
    const s = fakeStats({ "pricey/up": { uptime: 80 }, "cheap/up": { uptime: 100 }, "mid/up": { uptime: 95 } });
    expect(ids(orderEndpoints(E, orderCtx({ stats: s, prefs: { sort: "exacto" } })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
  });
  test("object form {by}", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { sort: { by: "latency" } } })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
  });
  test("no figures at all keeps the catalog order (a stable sort)", () => {
    expect(ids(orderEndpoints(E, orderCtx({ prefs: { sort: "latency" } })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
  });
  test("the workspace default applies only when the request has no sort", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, workspaceSort: "latency" })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ stats, workspaceSort: "latency", prefs: { sort: "price" } })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ stats, workspaceSort: "latency", prefs: { sort: { partition: "model" } } })))).toEqual([
      "pricey/up",
      "cheap/up",
      "mid/up",
    ]);
    // an unknown workspace value falls back to the price-weighted default
    expect(ids(orderEndpoints(E, orderCtx({ stats, workspaceSort: "fastest" })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
  });
  test("allow_fallbacks false without order: only the best", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { sort: "price", allow_fallbacks: false } })))).toEqual(["cheap/up"]);
  });
  test("open circuits last within a sort, probing ones stay in place", () => {
    const health = fakeHealth({ "cheap/up": "open", "mid/up": "probe" });
    expect(ids(orderEndpoints(E, orderCtx({ health, prefs: { sort: "price" } })))).toEqual(["mid/up", "pricey/up", "cheap/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ health, prefs: { sort: "price", allow_fallbacks: false } })))).toEqual(["mid/up"]);
  });
});

describe("preferred_max_latency / preferred_min_throughput", () => {
  const stats = fakeStats({
    "cheap/up": { latency: 3000, throughput: 10 },
    "mid/up": { latency: 500, throughput: 100 },
    // pricey: no figures, so never counted as slow
  });
  const byPrice = { sort: "price" as const };

  test("a bare number is p50 seconds", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { ...byPrice, preferred_max_latency: 1 } })))).toEqual(["mid/up", "pricey/up", "cheap/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { ...byPrice, preferred_max_latency: 3 } })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
  });

  test("percentile thresholds", () => {
    const s = fakeStats({ "cheap/up": { latencyP: { p50: 400, p75: 600, p90: 2500, p99: 4000 } } });
    expect(ids(orderEndpoints(E, orderCtx({ stats: s, prefs: { ...byPrice, preferred_max_latency: { p90: 2 } } })))).toEqual([
      "mid/up",
      "pricey/up",
      "cheap/up",
    ]);
    expect(ids(orderEndpoints(E, orderCtx({ stats: s, prefs: { ...byPrice, preferred_max_latency: { p50: 1, p90: null } } })))).toEqual([
      "cheap/up",
      "mid/up",
      "pricey/up",
    ]);
  });

  test("min throughput in tokens/s", () => {
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { ...byPrice, preferred_min_throughput: 50 } })))).toEqual(["mid/up", "pricey/up", "cheap/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { ...byPrice, preferred_min_throughput: { p50: 5 } } })))).toEqual([
      "cheap/up",
      "mid/up",
      "pricey/up",
    ]);
  });
});

describe("session affinity", () => {
  test("the session's endpoint goes first while healthy", () => {
    expect(ids(orderEndpoints(E, orderCtx({ sessionEndpoint: "pricey/up" })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
    expect(ids(orderEndpoints(E, orderCtx({ sessionEndpoint: "pricey/up", prefs: { sort: "price" } })))).toEqual(["pricey/up", "cheap/up", "mid/up"]);
  });

  test("not when its circuit is open or probing", () => {
    expect(ids(orderEndpoints(E, orderCtx({ sessionEndpoint: "pricey/up", health: fakeHealth({ "pricey/up": "open" }) })))).toEqual([
      "cheap/up",
      "mid/up",
      "pricey/up",
    ]);
    expect(ids(orderEndpoints(E, orderCtx({ sessionEndpoint: "pricey/up", health: fakeHealth({ "pricey/up": "probe" }) })))).toEqual([
      "cheap/up",
      "mid/up",
      "pricey/up",
    ]);
  });

  test("beats preferred_max_latency (the prompt cache lives there)", () => {
    const stats = fakeStats({ "pricey/up": { latency: 5000 } });
    expect(ids(orderEndpoints(E, orderCtx({ stats, sessionEndpoint: "pricey/up", prefs: { preferred_max_latency: 1 } })))).toEqual([
      "pricey/up",
      "cheap/up",
      "mid/up",
    ]);
  });

  test("an explicit order beats the session", () => {
    expect(ids(orderEndpoints(E, orderCtx({ sessionEndpoint: "pricey/up", prefs: { order: ["mid"] } })))).toEqual(["mid/up", "cheap/up", "pricey/up"]);
  });

  test("an endpoint of another model is ignored", () => {
    expect(ids(orderEndpoints(E, orderCtx({ sessionEndpoint: "elsewhere/up" })))).toEqual(["cheap/up", "mid/up", "pricey/up"]);
  });
});

describe("planRoute", () => {
  const m1 = model("m/one", [
    { provider: "a", prompt: "0.000005", completion: "0.000005" },
    { provider: "b", prompt: "0.000004", completion: "0.000004" },
  ]);
  const m2 = model("m/two", [{ provider: "c", prompt: "0.000001", completion: "0.000001" }]);
  const plan = (o: Parameters<typeof planInput>[1]) => planRoute(planInput([m1, m2], o)).map((c) => `${c.model.id}:${c.endpoint.id}`);

  test("model first, then each of models, in order", () => {
    expect(plan({ prefs: { sort: "price" } })).toEqual(["m/one:b/up", "m/one:a/up", "m/two:c/up"]);
  });

  test("sort partition none mixes the models' endpoints", () => {
    expect(plan({ prefs: { sort: { by: "price", partition: "none" } } })).toEqual(["m/two:c/up", "m/one:b/up", "m/one:a/up"]);
    // partition none with the workspace's sort
    expect(plan({ workspaceSort: "price", prefs: { sort: { partition: "none" } } })).toEqual(["m/two:c/up", "m/one:b/up", "m/one:a/up"]);
  });

  test("a model whose endpoints are all filtered is skipped; the rest still route", () => {
    expect(plan({ prefs: { ignore: ["a", "b"] } })).toEqual(["m/two:c/up"]);
  });

  test("one candidate per usable credential, carrying key and byok", () => {
    const out = planRoute(
      planInput([m2], {
        credentials: () => [
          { apiKey: "byok-1", isByok: true },
          { apiKey: "own", isByok: false },
        ],
      }),
    );
    expect(out.map((c) => [c.endpoint.id, c.apiKey, c.isByok])).toEqual([
      ["c/up", "byok-1", true],
      ["c/up", "own", false],
    ]);
  });

  test("session first, open circuits last, across the plan", () => {
    const health = fakeHealth({ "b/up": "open" });
    expect(plan({ health, sessionEndpoint: "a/up", prefs: { sort: "price" } })).toEqual(["m/one:a/up", "m/one:b/up", "m/two:c/up"]);
    expect(plan({ health, prefs: { sort: "price" } })).toEqual(["m/one:a/up", "m/one:b/up", "m/two:c/up"]);
  });
});

describe("speed preferences never reorder an explicit order", () => {
  test("a slow ordered provider stays first; slow fallbacks go after fast ones", () => {
    const stats = fakeStats({ "mid/up": { latency: 5000 }, "cheap/up": { latency: 5000 } });
    // rest = [pricey, cheap] by weighted random at 0.5 -> cheap, pricey; cheap is slow -> pricey, cheap
    expect(ids(orderEndpoints(E, orderCtx({ stats, prefs: { order: ["mid"], preferred_max_latency: 1 } })))).toEqual(["mid/up", "pricey/up", "cheap/up"]);
  });
});
