import { afterAll, expect, test } from "bun:test";
import type { CacheTopic } from "../../src/shared-state";
import { cleanupPrefix, describeRedis, eventually, uniquePrefix } from "../support/redis";
import { cluster } from "./instances";

describeRedis("invalidation bus across instances", (url) => {
  const c = cluster(url, "bus");
  afterAll(() => c.close());

  test("every instance hears every publish, the publisher's own listeners once, within 100 ms", async () => {
    const a = await c.instance();
    const b = await c.instance();
    const heardA: CacheTopic[] = [];
    const heardB: CacheTopic[] = [];
    a.shared.bus.subscribe((t) => heardA.push(t));
    b.shared.bus.subscribe((t) => heardB.push(t));

    a.shared.bus.publish("keys");
    expect(heardA).toEqual(["keys"]); // at once, without a round trip through Redis
    const aToB = await eventually(() => heardB.length === 1, 100);
    expect(heardB).toEqual(["keys"]);

    const start = performance.now();
    b.shared.bus.publish("byok");
    await eventually(() => heardA.length === 2, 100);
    const bToA = performance.now() - start;
    expect(heardA).toEqual(["keys", "byok"]);
    expect(heardB).toEqual(["keys", "byok"]);

    await Bun.sleep(50); // no echo arrives late
    expect(heardA).toEqual(["keys", "byok"]);
    expect(heardB).toEqual(["keys", "byok"]);
    expect(aToB).toBeLessThan(100);
    expect(bToA).toBeLessThan(100);
  });

  test("measured latency over 50 round trips stays far under 100 ms", async () => {
    const a = await c.instance();
    const b = await c.instance();
    const times: number[] = [];
    let heard = 0;
    let sentAt = 0;
    b.shared.bus.subscribe(() => {
      heard++;
      times.push(performance.now() - sentAt);
    });
    for (let i = 0; i < 50; i++) {
      sentAt = performance.now();
      a.shared.bus.publish("workspaces");
      await eventually(() => heard === i + 1, 100);
    }
    times.sort((x, y) => x - y);
    const p50 = times[25]!;
    const max = times[49]!;
    console.log(`bus latency A->B over 50 publishes: p50 ${p50.toFixed(2)} ms, max ${max.toFixed(2)} ms`);
    expect(max).toBeLessThan(100);
  });

  test("unsubscribe stops delivery", async () => {
    const a = await c.instance();
    const b = await c.instance();
    const heard: CacheTopic[] = [];
    const off = b.shared.bus.subscribe((t) => heard.push(t));
    a.shared.bus.publish("keys");
    await eventually(() => heard.length === 1);
    off();
    a.shared.bus.publish("keys");
    await Bun.sleep(50);
    expect(heard).toEqual(["keys"]);
  });

  test("an instance of another prefix hears nothing, routing changes included", async () => {
    const otherPrefix = uniquePrefix("bus-other");
    const a = await c.instance();
    const b = await c.instance();
    const other = await c.instance({ prefix: otherPrefix });
    const heardOther: CacheTopic[] = [];
    const heardB: CacheTopic[] = [];
    other.shared.bus.subscribe((t) => heardOther.push(t));
    b.shared.bus.subscribe((t) => heardB.push(t));
    a.shared.bus.publish("keys");
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/x");
    a.router.stats.record("p/x", true, 100, 50);
    a.router.sessions.set("s", "p/x");
    await eventually(() => heardB.length === 1 && b.router.circuits.health("p/x") === "open");
    await Bun.sleep(50);
    expect(heardOther).toEqual([]);
    expect(other.router.circuits.health("p/x")).toBe("healthy");
    expect(other.router.stats.stats("p/x").requestsLast30m).toBe(0);
    expect(other.router.sessions.get("s")).toBeUndefined();
    // and a late joiner of the other prefix reads none of this prefix's kept state
    const lateOther = await c.instance({ prefix: otherPrefix });
    expect(lateOther.router.circuits.health("p/x")).toBe("healthy");
    expect(lateOther.router.sessions.get("s")).toBeUndefined();
    await cleanupPrefix(url, otherPrefix);
  });
});
