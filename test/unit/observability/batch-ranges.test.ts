// How the senders that put many generations in one request cut them into requests.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { batchRanges } from "../../../src/observability/batch-ranges";

test("requests are cut at the count and character caps; an item over the character cap goes alone", () => {
  expect(batchRanges(["a", "b", "c", "d", "e"], 2, 100)).toEqual([
    { start: 0, end: 2 },
    { start: 2, end: 4 },
    { start: 4, end: 5 },
  ]);
  expect(batchRanges(["aaaa", "b", "cccccccccc", "d"], 10, 8)).toEqual([
    { start: 0, end: 2 },
    { start: 2, end: 3 },
    { start: 3, end: 4 },
  ]);
  expect(batchRanges([], 10, 8)).toEqual([]);
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 30 }), { maxLength: 60 }),
      fc.integer({ min: 1, max: 10 }),
      fc.integer({ min: 1, max: 80 }),
      (spans, maxCount, maxChars) => {
        const chunks = batchRanges(spans, maxCount, maxChars);
        // consecutive, in order, covering every item once
        expect(chunks.flatMap(({ start, end }) => spans.slice(start, end))).toEqual(spans);
        chunks.forEach((c, i) => expect(c.start).toBe(i === 0 ? 0 : chunks[i - 1]!.end));
        for (const { start, end } of chunks) {
          expect(end).toBeGreaterThan(start);
          expect(end - start).toBeLessThanOrEqual(maxCount);
          if (end - start > 1) expect(spans.slice(start, end).reduce((n, s) => n + s.length + 1, 0)).toBeLessThanOrEqual(maxChars);
        }
      },
    ),
    { numRuns: 300 },
  );
});
