import { afterAll, expect, test } from "bun:test";
import { describeRedis, eventually } from "../support/redis";
import { cluster } from "./instances";

describeRedis("session affinity across instances", (url) => {
  const c = cluster(url, "sessions");
  afterAll(() => c.close());

  test("a pin set on A is what B returns, and the latest pin wins on both", async () => {
    const a = await c.instance();
    const b = await c.instance();
    const key = "ws-1\u0000session:42/odd%chars";
    a.router.sessions.set(key, "p/one");
    await eventually(() => b.router.sessions.get(key) === "p/one");
    c.tick(10);
    b.router.sessions.set(key, "p/two");
    await eventually(() => a.router.sessions.get(key) === "p/two");
    expect(b.router.sessions.get(key)).toBe("p/two");
  });

  test("a pin expires on B when it expires on A (an hour after it was set, not after it arrived)", async () => {
    const a = await c.instance();
    const b = await c.instance();
    a.router.sessions.set("ttl", "p/one");
    await eventually(() => b.router.sessions.get("ttl") === "p/one");
    c.tick(60 * 60_000);
    expect(b.router.sessions.get("ttl")).toBe("p/one");
    c.tick(1);
    expect(a.router.sessions.get("ttl")).toBeUndefined();
    expect(b.router.sessions.get("ttl")).toBeUndefined();
  });

  test("an older pin arriving late does not replace a newer local one", async () => {
    const a = await c.instance();
    const b = await c.instance();
    b.router.sessions.set("race", "p/new");
    a.router.sessions.apply("race", "p/stale", c.clock() - 1); // what A would hear if its own pin were older
    b.router.sessions.apply("race", "p/stale", c.clock() - 1);
    expect(b.router.sessions.get("race")).toBe("p/new");
    await eventually(() => a.router.sessions.get("race") === "p/new");
  });
});
