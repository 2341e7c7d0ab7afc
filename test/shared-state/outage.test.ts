import { afterAll, expect, test } from "bun:test";
import type { CacheTopic } from "../../src/shared-state";
import { CACHE_TOPICS } from "../../src/shared-state/topics";
import { closedPort, describeRedis, eventually, recordingLogger, throwawayRedis } from "../support/redis";
import { cluster } from "./instances";

describeRedis("when Redis is unreachable", (url) => {
  const c = cluster(url, "outage");
  afterAll(() => c.close());

  test("pointed at a closed port: starts at once, ready() is false, requests work on the local copy, one warning", async () => {
    const logger = recordingLogger();
    const started = performance.now();
    const cutOff = await c.instance({ logger, url: `redis://127.0.0.1:${closedPort()}` });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(cutOff.shared.kind).toBe("redis");
    expect(await cutOff.shared.ready()).toBe(false);
    const heard: CacheTopic[] = [];
    cutOff.shared.bus.subscribe((t) => heard.push(t));
    const t = performance.now();
    for (let i = 0; i < 1_000; i++) {
      cutOff.router.circuits.failure("p/x");
      cutOff.router.stats.record("p/x", false, null, null);
      cutOff.router.sessions.set(`s-${i}`, "p/x");
    }
    cutOff.shared.bus.publish("keys");
    const perRequestUs = ((performance.now() - t) * 1000) / 1_000;
    expect(heard).toEqual(["keys"]); // its own caches are still invalidated
    expect(cutOff.router.circuits.health("p/x")).toBe("open");
    expect(cutOff.router.stats.stats("p/x").requestsLast30m).toBe(1_000);
    expect(cutOff.router.sessions.get("s-999")).toBe("p/x");
    expect(perRequestUs).toBeLessThan(100);
    await Bun.sleep(400); // a few reconnection attempts
    expect(logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
    expect(logger.lines.filter((l) => l.level === "error")).toHaveLength(0);
  });

  test("a restarted Redis: replication and the bus resume, listeners hear each message once", async () => {
    const redis = await throwawayRedis();
    if (!redis) {
      console.log("outage test skipped: no redis-server binary to stop and start");
      return;
    }
    try {
      const logger = recordingLogger();
      const a = await c.instance({ url: redis.url, logger });
      const b = await c.instance({ url: redis.url });
      const heardA: CacheTopic[] = [];
      a.shared.bus.subscribe((t) => heardA.push(t));
      b.router.sessions.set("before", "p/1");
      await eventually(() => a.router.sessions.get("before") === "p/1");

      await redis.stop();
      await eventually(() => logger.lines.some((l) => l.level === "warn"), 3_000);
      expect(await a.shared.ready()).toBe(false);
      b.router.sessions.set("during", "p/2"); // lost for A: nobody carries it
      a.router.stats.record("p/local", true, 100, null);
      expect(a.router.stats.stats("p/local").requestsLast30m).toBe(1);

      await redis.start();
      await eventually(() => logger.lines.some((l) => l.msg.startsWith("redis reachable again")), 10_000);
      expect(await a.shared.ready()).toBe(true);
      // coming back, A treats its caches as stale: it heard nothing meanwhile
      expect([...heardA].sort()).toEqual([...CACHE_TOPICS].sort());
      heardA.length = 0;

      await eventually(() => {
        // B may come back a moment after A: send until its change arrives
        b.router.stats.record("p/after", true, 100, null);
        return a.router.stats.stats("p/after").requestsLast30m > 0;
      }, 10_000);
      for (let i = 0; i < 3; i++) a.router.circuits.failure("p/after");
      await eventually(() => b.router.circuits.health("p/after") === "open");
      b.shared.bus.publish("byok");
      await eventually(() => heardA.length > 0);
      await Bun.sleep(50);
      expect(heardA).toEqual(["byok"]); // once: the new subscription did not double the listener
      expect(logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
    } finally {
      await redis.stop();
    }
  });
});
