import { describe, expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { describeRemovals, filterEndpoints, type Removal } from "../../../src/gateway/routing/filters";
import { planRoute } from "../../../src/gateway/routing/plan";
import { filterCtx, ids, model, planInput } from "./fixtures";

function run(m: ReturnType<typeof model>, ctx = filterCtx()) {
  const removed: Removal[] = [];
  const kept = filterEndpoints(m, ctx, removed);
  return { kept: ids(kept), removed };
}

describe("filterEndpoints", () => {
  const m = model("m/one", [{ provider: "alpha", name: "Alpha AI" }, { provider: "beta" }, { provider: "gamma" }]);

  test("no preferences keeps everything", () => {
    expect(run(m)).toEqual({ kept: ["alpha/up", "beta/up", "gamma/up"], removed: [] });
  });

  test("only matches slug or display name, case-insensitively", () => {
    const r = run(m, filterCtx({ prefs: { only: ["alpha ai", "GAMMA"] } }));
    expect(r.kept).toEqual(["alpha/up", "gamma/up"]);
    expect(r.removed).toEqual([{ endpoint: "beta/up", filter: "provider.only", detail: "not in [alpha ai, GAMMA]" }]);
  });

  test("ignore", () => {
    const r = run(m, filterCtx({ prefs: { ignore: ["beta"] } }));
    expect(r.kept).toEqual(["alpha/up", "gamma/up"]);
    expect(r.removed).toEqual([{ endpoint: "beta/up", filter: "provider.ignore", detail: "ignored" }]);
  });

  test("empty only / ignore lists filter nothing", () => {
    expect(run(m, filterCtx({ prefs: { only: [], ignore: [] } })).kept).toEqual(["alpha/up", "beta/up", "gamma/up"]);
  });

  test("zdr keeps only zero-data-retention providers", () => {
    const z = model("m/z", [{ provider: "a", zdr: true }, { provider: "b" }]);
    expect(run(z, filterCtx({ prefs: { zdr: true } }))).toEqual({
      kept: ["a/up"],
      removed: [{ endpoint: "b/up", filter: "provider.zdr", detail: "not zero-data-retention" }],
    });
    expect(run(z, filterCtx({ prefs: { zdr: false } })).kept).toEqual(["a/up", "b/up"]);
  });

  test("data_collection deny", () => {
    const d = model("m/d", [
      { provider: "a", dataCollection: "deny" },
      { provider: "b", dataCollection: "allow" },
    ]);
    expect(run(d, filterCtx({ prefs: { data_collection: "deny" } }))).toEqual({
      kept: ["a/up"],
      removed: [{ endpoint: "b/up", filter: "provider.data_collection", detail: "may collect data" }],
    });
    expect(run(d, filterCtx({ prefs: { data_collection: "allow" } })).kept).toEqual(["a/up", "b/up"]);
  });

  test("quantizations; an endpoint without one counts as unknown", () => {
    const q = model("m/q", [
      { provider: "a", quantization: "fp8" },
      { provider: "b", quantization: "bf16" },
      { provider: "c", quantization: null },
    ]);
    expect(run(q, filterCtx({ prefs: { quantizations: ["fp8"] } }))).toEqual({
      kept: ["a/up"],
      removed: [
        { endpoint: "b/up", filter: "provider.quantizations", detail: "quantization bf16" },
        { endpoint: "c/up", filter: "provider.quantizations", detail: "quantization unknown" },
      ],
    });
    expect(run(q, filterCtx({ prefs: { quantizations: ["unknown", "bf16"] } })).kept).toEqual(["b/up", "c/up"]);
  });

  describe("max_price", () => {
    // a: $1/M prompt, $2/M completion; b: $3/M prompt, $15/M completion, $0.01 per request, $0.005 per image
    const p = model("m/p", [
      { provider: "a", prompt: "0.000001", completion: "0.000002" },
      { provider: "b", prompt: "0.000003", completion: "0.000015", request: "0.01", image: "0.005" },
    ]);

    test("prompt and completion are per 1M tokens, numbers or strings", () => {
      expect(run(p, filterCtx({ prefs: { max_price: { prompt: 1 } } }))).toEqual({
        kept: ["a/up"],
        removed: [{ endpoint: "b/up", filter: "provider.max_price", detail: "prompt price 3 > 1" }],
      });
      expect(run(p, filterCtx({ prefs: { max_price: { prompt: "3" } } })).kept).toEqual(["a/up", "b/up"]);
      expect(run(p, filterCtx({ prefs: { max_price: { completion: "14.99" } } }))).toEqual({
        kept: ["a/up"],
        removed: [{ endpoint: "b/up", filter: "provider.max_price", detail: "completion price 15 > 14.99" }],
      });
      // exact decimal equality at the limit keeps the endpoint
      expect(run(p, filterCtx({ prefs: { max_price: { prompt: 3, completion: 15 } } })).kept).toEqual(["a/up", "b/up"]);
    });

    test("request and image are per unit", () => {
      expect(run(p, filterCtx({ prefs: { max_price: { request: "0.001" } } })).removed).toEqual([
        { endpoint: "b/up", filter: "provider.max_price", detail: "request price 0.01 > 0.001" },
      ]);
      expect(run(p, filterCtx({ prefs: { max_price: { image: 0.004 } } })).removed).toEqual([
        { endpoint: "b/up", filter: "provider.max_price", detail: "image price 0.005 > 0.004" },
      ]);
      expect(run(p, filterCtx({ prefs: { max_price: { image: 0.005, request: "0.01" } } })).kept).toEqual(["a/up", "b/up"]);
    });

    test("empty, null and unparseable limits are ignored", () => {
      expect(run(p, filterCtx({ prefs: { max_price: { prompt: "", completion: null, request: "abc" } } })).kept).toEqual(["a/up", "b/up"]);
    });
  });

  test("require_parameters keeps endpoints supporting every sent parameter", () => {
    const r = model("m/r", [
      { provider: "a", supportedParameters: ["max_tokens", "tools", "temperature"] },
      { provider: "b", supportedParameters: ["max_tokens"] },
    ]);
    const sent = { sentParameters: ["tools", "temperature"] };
    expect(run(r, filterCtx({ ...sent, prefs: { require_parameters: true } }))).toEqual({
      kept: ["a/up"],
      removed: [{ endpoint: "b/up", filter: "provider.require_parameters", detail: "does not support tools, temperature" }],
    });
    // without the flag the same request may go anywhere
    expect(run(r, filterCtx({ ...sent, prefs: {} })).kept).toEqual(["a/up", "b/up"]);
  });

  test("context length: prompt estimate plus requested output must fit", () => {
    const c = model("m/c", [
      { provider: "small", contextLength: 1_000 },
      { provider: "big", contextLength: 100_000 },
    ]);
    expect(run(c, filterCtx({ estimatedPromptTokens: 600, requestedOutputTokens: 400 })).kept).toEqual(["small/up", "big/up"]);
    expect(run(c, filterCtx({ estimatedPromptTokens: 600, requestedOutputTokens: 401 }))).toEqual({
      kept: ["big/up"],
      removed: [{ endpoint: "small/up", filter: "context_length", detail: "needs ~1001 tokens, has 1000" }],
    });
  });

  test("input modalities come from the model", () => {
    const textOnly = model("m/t", [{ provider: "a" }]);
    const vision = model("m/v", [{ provider: "a" }], ["text", "image"]);
    const need = filterCtx({ modalities: new Set(["text", "image"]) });
    expect(run(textOnly, need)).toEqual({ kept: [], removed: [{ endpoint: "a/up", filter: "input_modalities", detail: "no image input" }] });
    expect(run(vision, need).kept).toEqual(["a/up"]);
  });

  test("endpoints without usable credentials are skipped", () => {
    const k = model("m/k", [{ provider: "a", apiKey: null }, { provider: "b" }]);
    expect(run(k)).toEqual({
      kept: ["b/up"],
      removed: [{ endpoint: "a/up", filter: "credentials", detail: "no usable credentials: set api_key for provider a or add a BYOK credential" }],
    });
  });

  test("the first failing check names the filter", () => {
    const k = model("m/k", [{ provider: "a", apiKey: null, zdr: false }]);
    expect(run(k, filterCtx({ prefs: { zdr: true } })).removed).toEqual([{ endpoint: "a/up", filter: "provider.zdr", detail: "not zero-data-retention" }]);
  });

  test("describeRemovals", () => {
    expect(
      describeRemovals([
        { endpoint: "a/x", filter: "provider.only", detail: "not in [b]" },
        { endpoint: "c/y", filter: "credentials" },
      ]),
    ).toBe("provider.only removed a/x (not in [b]); credentials removed c/y");
  });
});

describe("planRoute: nothing left is a 503 naming the filters", () => {
  test("503 with which filter removed what, across all requested models", () => {
    const m1 = model("m/one", [
      { provider: "a", quantization: "fp8" },
      { provider: "b", apiKey: null },
    ]);
    const m2 = model("m/two", [{ provider: "c", contextLength: 5 }]);
    let err: unknown;
    try {
      planRoute(planInput([m1, m2], { prefs: { quantizations: ["bf16"] } }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    const g = err as GatewayError;
    expect(g.status).toBe(503);
    expect(g.message).toBe(
      "No endpoint satisfies the routing requirements for m/one: provider.quantizations removed a/up (quantization fp8); provider.quantizations removed b/up (quantization unknown); provider.quantizations removed c/up (quantization unknown)",
    );
    expect((g.metadata as { removed: unknown[] }).removed).toHaveLength(3);
  });

  test("credentials and context reasons", () => {
    const m1 = model("m/one", [
      { provider: "a", apiKey: null },
      { provider: "b", contextLength: 100 },
    ]);
    expect(() => planRoute(planInput([m1], { estimatedPromptTokens: 90, requestedOutputTokens: 20 }))).toThrow(
      "No endpoint satisfies the routing requirements for m/one: credentials removed a/up (no usable credentials: set api_key for provider a or add a BYOK credential); context_length removed b/up (needs ~110 tokens, has 100)",
    );
  });

  test("a model with no endpoints at all", () => {
    expect(() => planRoute(planInput([], { requested: "m/gone" }))).toThrow("No endpoint satisfies the routing requirements for m/gone: no endpoints");
  });
});

describe("planRoute: allow_fallbacks false with no ordered provider left", () => {
  test("503 says order removed the rest", () => {
    const m1 = model("m/one", [{ provider: "a", apiKey: null }, { provider: "b" }, { provider: "c" }]);
    expect(() => planRoute(planInput([m1], { prefs: { order: ["a"], allow_fallbacks: false } }))).toThrow(
      "No endpoint satisfies the routing requirements for m/one: credentials removed a/up (no usable credentials: set api_key for provider a or add a BYOK credential); provider.order [a] with allow_fallbacks: false removed b/up, c/up",
    );
  });
});
