// sendMany for list-bodied types: the generations' items cut into requests, and halved, at generation boundaries.
import { expect, test } from "bun:test";
import type { SenderHttp, SendOutcome } from "../../../src/observability/contract";
import { MAX_GENERATIONS_PER_LIST, sendGenerationItems } from "../../../src/observability/halving-batches";

type HttpResult = Awaited<ReturnType<SenderHttp>>;
const answer = (status: number): HttpResult => ({ kind: "response", status, headers: new Headers(), body: new Uint8Array() });
const classify = (result: HttpResult): SendOutcome =>
  result.kind === "response" && result.status < 300 ? { kind: "delivered" } : { kind: "failed", reason: "refused" };

test("at most MAX_GENERATIONS_PER_LIST generations' items a request, never a generation cut in two; a generation without items is delivered", async () => {
  const perGeneration = Array.from({ length: 2 * MAX_GENERATIONS_PER_LIST + 7 }, (_, g) => (g === 3 ? [] : [`${g}a`, `${g}b`]));
  const requests: string[][] = [];
  const outcomes = await sendGenerationItems(perGeneration, async (batch) => (requests.push([...batch]), answer(200)), classify);
  expect(outcomes).toEqual(perGeneration.map(() => ({ kind: "delivered" })));
  // 206 generations with items: 100, 100 and 6 of them
  expect(requests.map((r) => r.length)).toEqual([2 * MAX_GENERATIONS_PER_LIST, 2 * MAX_GENERATIONS_PER_LIST, 2 * 6]);
  expect(requests.flat()).toEqual(perGeneration.flat());
  expect(requests[0]!.at(-1)).toBe(`${MAX_GENERATIONS_PER_LIST}b`);
});

test("a generation whose items are refused (400) fails alone, after halving between generations", async () => {
  const requests: string[][] = [];
  const post = async (batch: readonly string[]) => (requests.push([...batch]), batch.length > 1 ? answer(413) : batch[0] === "2a" ? answer(400) : answer(200));
  const outcomes = await sendGenerationItems([["1a"], ["2a"], ["3a"]], post, classify);
  expect(outcomes.map((o) => o.kind)).toEqual(["delivered", "failed", "delivered"]);
  expect(requests).toEqual([["1a", "2a", "3a"], ["1a", "2a"], ["1a"], ["2a"], ["3a"]]);
});

test("a generation's items always go together: halving stops at one generation", async () => {
  const requests: string[][] = [];
  const outcomes = await sendGenerationItems(
    [
      ["a1", "a2"],
      ["b1", "b2"],
    ],
    async (batch) => (requests.push([...batch]), batch.length > 2 ? answer(413) : answer(200)),
    classify,
  );
  expect(outcomes).toEqual([{ kind: "delivered" }, { kind: "delivered" }]);
  expect(requests).toEqual([
    ["a1", "a2", "b1", "b2"],
    ["a1", "a2"],
    ["b1", "b2"],
  ]);
});
