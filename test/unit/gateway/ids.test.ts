import { expect, test } from "bun:test";
import fc from "fast-check";
import { newGenerationId } from "../../../src/gateway/ids";

test("a generation id is gen-<unix seconds>-<millisecond in two digits><10 random bytes>", () => {
  const id = newGenerationId(Date.UTC(2026, 10, 27, 9, 0, 0, 999));
  expect(id).toMatch(/^gen-1795770000-G7[A-Za-z0-9_-]{14}$/);
  expect(newGenerationId(Date.UTC(2026, 10, 27, 9, 0, 0, 0))).toMatch(/^gen-1795770000-00[A-Za-z0-9_-]{14}$/);
});

test("ids made in a later millisecond sort after earlier ones, as text", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 1, max: 999 }), (at, later) => {
      const first = newGenerationId(at);
      const second = newGenerationId(at + later);
      // the same number of seconds' digits: text order is time order
      fc.pre(first.split("-")[1]!.length === second.split("-")[1]!.length);
      expect(first < second).toBe(true);
    }),
    { numRuns: 500 },
  );
});

test("ids of the same millisecond differ", () => {
  const ids = new Set(Array.from({ length: 10_000 }, () => newGenerationId(1_795_770_000_123)));
  expect(ids.size).toBe(10_000);
});
