import { describe, expect, test } from "bun:test";
import { SessionAffinity } from "../../../src/gateway/routing/session-affinity";

function setup(capacity = 3, ttlMs = 1000) {
  let now = 0;
  const s = new SessionAffinity(capacity, ttlMs, () => now);
  return { s, tick: (ms: number) => (now += ms) };
}

describe("SessionAffinity", () => {
  test("remembers the last endpoint of a session", () => {
    const { s } = setup();
    expect(s.get("a")).toBeUndefined();
    s.set("a", "p/1");
    expect(s.get("a")).toBe("p/1");
    s.set("a", "p/2");
    expect(s.get("a")).toBe("p/2");
    expect(s.size).toBe(1);
  });

  test("LRU bound: the least recently set session goes past capacity", () => {
    const { s } = setup(3);
    s.set("a", "1");
    s.set("b", "2");
    s.set("c", "3");
    s.set("a", "1"); // refreshes a
    s.set("d", "4");
    expect(s.size).toBe(3);
    expect(s.get("b")).toBeUndefined();
    expect([s.get("a"), s.get("c"), s.get("d")]).toEqual(["1", "3", "4"]);
  });

  test("stays bounded over many sessions", () => {
    const { s } = setup(100);
    for (let i = 0; i < 10_000; i++) s.set(`s${i}`, "e");
    expect(s.size).toBe(100);
    expect(s.get("s9999")).toBe("e");
    expect(s.get("s9899")).toBeUndefined();
    expect(s.get("s9900")).toBe("e");
  });

  test("TTL from the last use", () => {
    const { s, tick } = setup(3, 1000);
    s.set("a", "1");
    tick(1000);
    expect(s.get("a")).toBe("1");
    s.set("a", "1");
    tick(1000);
    expect(s.get("a")).toBe("1");
    tick(1);
    expect(s.get("a")).toBeUndefined();
    expect(s.size).toBe(0);
  });
});
