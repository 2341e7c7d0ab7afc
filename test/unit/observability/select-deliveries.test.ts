import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { withoutContent } from "../../../src/observability/pipeline/privacy";
import { mayForward, selectDeliveries } from "../../../src/observability/pipeline/select-deliveries";
import { destination, observed } from "./observed-fixture";

const CANARY = "CANARY-7f3a9c";

describe("selectDeliveries", () => {
  const g = observed({
    input: { messages: [{ role: "user", content: `say ${CANARY}` }], tools: [{ type: "function", function: { name: "f" } }], parameters: { temperature: 1 } },
    output: { text: CANARY, toolCalls: [{ id: "c1", name: "f", arguments: `{"x":"${CANARY}"}` }] },
  });

  test("one delivery per matching destination, in order", () => {
    const out = selectDeliveries(g, [destination({ id: "d1" }), destination({ id: "d2" })]);
    expect(out.map((d) => d.destination.id)).toEqual(["d1", "d2"]);
    expect(out[0]!.generation).toBe(g);
  });

  test("disabled destinations and those of another workspace get nothing", () => {
    expect(selectDeliveries(g, [destination({ enabled: false }), destination({ workspaceId: "ws-2" })])).toEqual([]);
  });

  test("api_key_hashes: null is every key, a list only those", () => {
    expect(selectDeliveries(g, [destination({ apiKeyHashes: null })])).toHaveLength(1);
    expect(selectDeliveries(g, [destination({ apiKeyHashes: ["hash-b", "hash-a"] })])).toHaveLength(1);
    expect(selectDeliveries(g, [destination({ apiKeyHashes: ["hash-b"] })])).toHaveLength(0);
  });

  test("filter rules see the content even with privacy mode on", () => {
    const rules = { groups: [{ rules: [{ field: "output", operator: "contains", value: CANARY }] }] };
    const [kept] = selectDeliveries(g, [destination({ privacyMode: true, filterRules: rules })]);
    expect(kept).toBeDefined();
    expect(selectDeliveries(g, [destination({ filterRules: { groups: [{ rules: [{ field: "output", operator: "contains", value: "absent" }] }] } })])).toEqual(
      [],
    );
  });

  test("privacy mode: no byte of the prompt or the completion is left, everything else is", () => {
    const [kept] = selectDeliveries(g, [destination({ privacyMode: true })]);
    const bytes = JSON.stringify(kept!.generation);
    expect(bytes).not.toContain(CANARY);
    expect(kept!.generation).toEqual({ ...g, input: null, output: null });
  });

  test("sampling drops a destination whose rate leaves the session out", () => {
    // rate 0.0001: this session is out for this destination
    expect(selectDeliveries(g, [destination({ samplingRate: 0.0001 })])).toEqual([]);
    expect(selectDeliveries(g, [destination({ samplingRate: 1 })])).toHaveLength(1);
  });

  test("withoutContent keeps the same object when there is nothing to strip", () => {
    const bare = observed({ input: null, output: null });
    expect(withoutContent(bare)).toBe(bare);
  });
});

describe("mayForward: the choices made when the request is planned", () => {
  const KEYS = ["hash-a", "hash-b", "hash-c"];
  const target = fc.record({
    id: fc.constantFrom("d-1", "d-2", "d-3", "d-4"),
    apiKeyHashes: fc.option(fc.subarray(KEYS), { nil: null }),
    samplingRate: fc.constantFrom(0.0001, 0.1, 0.5, 0.9, 1),
  });
  const request = fc.record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    sessionId: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: null }),
    trace: fc.option(fc.record({ trace_id: fc.string({ maxLength: 8 }) }), { nil: null }),
  });

  test("false only when the pipeline would deliver the generation to none of the destinations, whatever its outcome", () => {
    fc.assert(
      fc.property(fc.array(target, { maxLength: 4 }), fc.constantFrom(...KEYS), request, (targets, keyHash, req) => {
        const destinations = targets.map((t) => destination(t));
        const delivered = selectDeliveries(observed({ ...req, keyHash }), destinations).length > 0;
        // with no filter rules, the pipeline's choices are exactly the ones made at planning
        expect(mayForward(targets, keyHash, req)).toBe(delivered);
      }),
      { numRuns: 500 },
    );
  });

  test("a destination for another key, or a session sampled out, is not forwarded", () => {
    const req = { id: "gen-1", sessionId: "s1", trace: null };
    expect(mayForward([], "hash-a", req)).toBe(false);
    expect(mayForward([{ id: "d-1", apiKeyHashes: ["hash-b"], samplingRate: 1 }], "hash-a", req)).toBe(false);
    expect(mayForward([{ id: "d-1", apiKeyHashes: ["hash-b", "hash-a"], samplingRate: 1 }], "hash-a", req)).toBe(true);
    expect(mayForward([{ id: "d-1", apiKeyHashes: null, samplingRate: 0.5 }], "hash-a", req)).toBe(false);
    expect(mayForward([{ id: "d-2", apiKeyHashes: null, samplingRate: 0.5 }], "hash-a", req)).toBe(true);
  });
});
