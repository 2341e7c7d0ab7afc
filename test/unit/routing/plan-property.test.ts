import { expect, test } from "bun:test";
import fc from "fast-check";
import { GatewayError } from "../../../src/errors";
import type { Health } from "../../../src/gateway/routing/circuit";
import { filterEndpoints, type Removal } from "../../../src/gateway/routing/filters";
import { planRoute } from "../../../src/gateway/routing/plan";
import type { ProviderPreferences } from "../../../src/gateway/routing/preferences";
import { type EndpointSpec, fakeStats, filterCtx, model, planInput } from "./fixtures";

const PROVIDERS = ["a", "b", "c", "d", "e", "f"];
const QUANTS = ["fp8", "bf16", "int4"];
const PRICES = ["0", "0.0000005", "0.000001", "0.000003", "0.00001"];

const endpointSpec = (provider: string) =>
  fc.record({
    provider: fc.constant(provider),
    prompt: fc.constantFrom(...PRICES),
    completion: fc.constantFrom(...PRICES),
    quantization: fc.constantFrom(null, ...QUANTS),
    zdr: fc.boolean(),
    dataCollection: fc.constantFrom<"allow" | "deny">("allow", "deny"),
    contextLength: fc.constantFrom(100, 8000),
    apiKey: fc.constantFrom<string | null>("k", "k", "k", null),
    supportedParameters: fc.subarray(["max_tokens", "tools", "temperature"]),
  }) as fc.Arbitrary<EndpointSpec>;

const modelArb = (id: string) =>
  fc
    .uniqueArray(fc.constantFrom(...PROVIDERS), { minLength: 1, maxLength: 5 })
    .chain((ps) => fc.tuple(...ps.map(endpointSpec)).map((specs) => model(id, specs)));

const subset = fc.subarray(PROVIDERS);
const prefsArb: fc.Arbitrary<ProviderPreferences> = fc.record(
  {
    order: fc.uniqueArray(fc.constantFrom(...PROVIDERS, "A", "zz"), { maxLength: 4 }),
    only: subset,
    ignore: subset,
    allow_fallbacks: fc.boolean(),
    zdr: fc.boolean(),
    data_collection: fc.constantFrom<"allow" | "deny">("allow", "deny"),
    quantizations: fc.subarray([...QUANTS, "unknown"]),
    require_parameters: fc.boolean(),
    sort: fc.constantFrom<ProviderPreferences["sort"]>(
      "price",
      "latency",
      "throughput",
      "exacto",
      { by: "price", partition: "none" },
      { by: "latency", partition: "model" },
    ),
    max_price: fc.record({ prompt: fc.constantFrom(0.5, "1", 3), completion: fc.constantFrom("0.5", 2, 10) }, { requiredKeys: [] }),
    preferred_max_latency: fc.constantFrom(0.5, 2, { p90: 1 }),
    preferred_min_throughput: fc.constantFrom(10, 100),
  },
  { requiredKeys: [] },
);

const statsArb = fc.dictionary(
  fc.constantFrom(...PROVIDERS.map((p) => `${p}/up`)),
  fc.record(
    { latency: fc.integer({ min: 50, max: 5000 }), throughput: fc.integer({ min: 1, max: 300 }), uptime: fc.integer({ min: 0, max: 100 }) },
    { requiredKeys: [] },
  ),
);
const healthArb = fc.dictionary(fc.constantFrom(...PROVIDERS.map((p) => `${p}/up`)), fc.constantFrom<Health>("healthy", "open", "probe"));

test("the plan never holds a filtered endpoint and always respects provider.order", () => {
  fc.assert(
    fc.property(
      fc.tuple(modelArb("m/one"), modelArb("m/two")),
      prefsArb,
      statsArb,
      healthArb,
      fc.double({ min: 0, max: 0.999999, noNaN: true }),
      fc.subarray(["max_tokens", "tools", "temperature"]),
      fc.option(fc.constantFrom(...PROVIDERS.map((p) => `${p}/up`)), { nil: undefined }),
      (models, prefs, figures, healthMap, r, sent, sessionEndpoint) => {
        const health = (id: string): Health => healthMap[id] ?? "healthy";
        const input = planInput(models, {
          prefs,
          stats: fakeStats(figures),
          health,
          random: () => r,
          sentParameters: sent,
          estimatedPromptTokens: 500,
          sessionEndpoint,
        });

        // what the filters alone keep, per model
        const removed: Removal[] = [];
        const kept = models.map((m) => new Set(filterEndpoints(m, filterCtx({ prefs, sentParameters: sent, estimatedPromptTokens: 500 }), removed)));

        let plan: ReturnType<typeof planRoute> | undefined;
        try {
          plan = planRoute(input);
        } catch (err) {
          expect(err).toBeInstanceOf(GatewayError);
          // nothing plannable: no endpoint left, or none of them is in `order` without fallbacks
          const left = kept.flatMap((s) => [...s]);
          // 400 when the context lengths alone removed every endpoint (the request is too long), else 503
          // (an endpoint that passed the filters but not provider.order makes it a routing refusal)
          const tooLong = left.length === 0 && removed.length > 0 && removed.every((x) => x.filter === "context_length");
          expect((err as GatewayError).status).toBe(tooLong ? 400 : 503);
          const inOrder = (p: string) => (prefs.order ?? []).some((o) => o.toLowerCase() === p);
          expect(left.length === 0 || (prefs.allow_fallbacks === false && (prefs.order?.length ?? 0) > 0 && !left.some((e) => inOrder(e.provider.slug)))).toBe(
            true,
          );
          return;
        }

        // no filtered endpoint
        const removedIds = new Set(removed.map((x) => `${x.endpoint}`));
        for (const c of plan) {
          const i = models.indexOf(c.model);
          expect(kept[i]!.has(c.endpoint)).toBe(true);
          expect(removedIds.has(c.endpoint.id) && !kept[i]!.has(c.endpoint)).toBe(false);
          if (prefs.only?.length) expect(prefs.only).toContain(c.endpoint.provider.slug);
          if (prefs.ignore?.length) expect(prefs.ignore).not.toContain(c.endpoint.provider.slug);
          expect(c.endpoint.provider.apiKey).toBeDefined();
        }
        // no endpoint twice (one credential each here)
        expect(new Set(plan.map((c) => c.endpoint)).size).toBe(plan.length);

        const order = (prefs.order ?? []).map((o) => o.toLowerCase());
        const rank = (slug: string) => {
          const i = order.indexOf(slug);
          return i === -1 ? Infinity : i;
        };
        const sort = prefs.sort;
        const mixed = typeof sort === "object" && sort !== null && sort.partition === "none" && !!sort.by;
        const groups = mixed ? [plan] : models.map((m) => plan.filter((c) => c.model === m));
        for (const group of groups) {
          const slugs = group.map((c) => c.endpoint.provider.slug);
          if (order.length && prefs.allow_fallbacks === false) for (const s of slugs) expect(order).toContain(s);
          if (!order.length) {
            if (prefs.allow_fallbacks === false && !mixed) expect(group.length).toBeLessThanOrEqual(1);
            continue;
          }
          // open circuits go last; among the rest, ordered providers first and in order
          const open = group.map((c) => health(c.endpoint.id) === "open");
          const firstOpen = open.indexOf(true);
          if (firstOpen !== -1) expect(open.slice(firstOpen).every(Boolean)).toBe(true);
          for (const part of [group.filter((_, i) => !open[i]), group.filter((_, i) => open[i])]) {
            const ranks = part.map((c) => rank(c.endpoint.provider.slug));
            for (let i = 1; i < ranks.length; i++) expect(ranks[i - 1]! <= ranks[i]!).toBe(true);
          }
        }
        // the ordered-and-kept endpoints are all there (order never drops a preferred endpoint)
        for (let i = 0; i < models.length; i++) {
          for (const e of kept[i]!) if (rank(e.provider.slug) !== Infinity) expect(plan.some((c) => c.endpoint === e)).toBe(true);
        }
      },
    ),
    { numRuns: 2000 },
  );
});
