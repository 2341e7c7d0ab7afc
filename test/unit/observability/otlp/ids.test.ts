import { expect, test } from "bun:test";
import fc from "fast-check";
import { parentSpanIdOf, spanIdOf, traceIdOf } from "../../../../src/observability/otlp/ids";
import { observedGeneration } from "../fixtures";

const TRACE = /^[0-9a-f]{32}$/;
const SPAN = /^[0-9a-f]{16}$/;

test("the caller's 32-hex trace_id is the trace id (lower-cased); anything else is derived from it, the same each time", () => {
  expect(traceIdOf(observedGeneration({ trace: { trace_id: "4BF92F3577B34DA6A3CE929D0E0E4736" } }))).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  const derived = traceIdOf(observedGeneration({ trace: { trace_id: "my-trace" } }));
  expect(derived).toMatch(TRACE);
  expect(traceIdOf(observedGeneration({ id: "another", trace: { trace_id: "my-trace" } }))).toBe(derived);
  expect(traceIdOf(observedGeneration({ trace: { trace_id: "0".repeat(32) } }))).not.toBe("0".repeat(32));
  // without one, each generation is its own trace
  expect(traceIdOf(observedGeneration({ id: "a" }))).not.toBe(traceIdOf(observedGeneration({ id: "b" })));
});

test("parent_span_id: kept when 16 hex, derived otherwise, none without it; span ids stable per generation and role", () => {
  expect(parentSpanIdOf(observedGeneration({ trace: { parent_span_id: "00F067AA0BA902B7" } }))).toBe("00f067aa0ba902b7");
  expect(parentSpanIdOf(observedGeneration({ trace: { parent_span_id: "step-3" } }))).toMatch(SPAN);
  expect(parentSpanIdOf(observedGeneration())).toBeUndefined();
  const g = observedGeneration();
  expect(spanIdOf(g, "generation")).toBe(spanIdOf(observedGeneration(), "generation"));
  expect(spanIdOf(g, "generation")).not.toBe(spanIdOf(g, "attempt:1"));
});

test("property: whatever the caller sends as trace ids, the ids are OTLP's hex lengths", () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.string({ minLength: 1 }), (traceId, parent, id) => {
      const g = observedGeneration({ id, trace: { trace_id: traceId, parent_span_id: parent } });
      expect(traceIdOf(g)).toMatch(TRACE);
      const p = parentSpanIdOf(g);
      if (parent === "") expect(p).toBeUndefined();
      else expect(p).toMatch(SPAN);
      expect(spanIdOf(g, "generation")).toMatch(SPAN);
    }),
  );
});
