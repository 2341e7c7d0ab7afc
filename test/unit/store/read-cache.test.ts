import { expect, test } from "bun:test";
import { ReadCache } from "../../../src/store/read-cache";

test("hits within the lifetime, reloads after it or after clear, never caches a miss", async () => {
  let now = 0;
  let loads = 0;
  const cache = new ReadCache<string>(1000, 2, () => now);
  const load = (v: string | undefined) => () => (loads++, v);
  expect(await cache.get("a", load("A1"))).toBe("A1");
  expect(await cache.get("a", load("A2"))).toBe("A1");
  now = 1000;
  expect(await cache.get("a", load("A3"))).toBe("A3");
  cache.clear();
  expect(await cache.get("a", load("A4"))).toBe("A4");
  expect(await cache.get("b", load(undefined))).toBeUndefined();
  expect(await cache.get("b", load("B"))).toBe("B");
  expect(loads).toBe(5);
});

test("bounded: past capacity it starts over", async () => {
  const cache = new ReadCache<number>(60_000, 3);
  for (let i = 0; i < 10; i++) await cache.get(String(i), () => i);
  let reloaded = 0;
  for (let i = 0; i < 10; i++) await cache.get(String(i), () => (reloaded++, i));
  expect(reloaded).toBeGreaterThanOrEqual(7);
});

test("a load that began before a clear does not store the value it read", async () => {
  const cache = new ReadCache<string>(60_000);
  let release!: () => void;
  const slow = cache.get("k", () => new Promise<string>((r) => (release = () => r("old"))));
  cache.clear();
  release();
  expect(await slow).toBe("old");
  expect(await cache.get("k", () => "new")).toBe("new");
});
