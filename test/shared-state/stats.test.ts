import { afterAll, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { redisNames } from "../../src/shared-state/redis-names";
import { describeRedis, eventually, listenRaw } from "../support/redis";
import { cluster } from "./instances";

describeRedis("live stats across instances", (url) => {
  const c = cluster(url, "stats");
  afterAll(() => c.close());

  test("records made on A and on B give both the same figures exactly", async () => {
    const a = await c.instance();
    const b = await c.instance();
    for (let i = 0; i < 300; i++) {
      const on = i % 3 === 0 ? b : a;
      on.router.stats.record("p/m", i % 10 !== 0, 20 + ((i * 37) % 900), i % 4 === 0 ? null : 5 + ((i * 13) % 200));
      if (i % 50 === 0) c.tick(61_000); // spread over several minute buckets
    }
    a.router.stats.record("q/m", false, null, null);
    await eventually(() => a.router.stats.stats("p/m").requestsLast30m === 300 && b.router.stats.stats("p/m").requestsLast30m === 300);
    await eventually(() => b.router.stats.stats("q/m").requestsLast30m === 1);
    const onA = a.router.stats.stats("p/m");
    expect(b.router.stats.stats("p/m")).toEqual(onA);
    expect(onA.latencyLast30m).not.toBeNull();
    expect(onA.throughputLast30m).not.toBeNull();
    expect(onA.uptimeLast30m).toBe(90);
    expect(b.router.stats.stats("q/m")).toEqual(a.router.stats.stats("q/m"));
    expect(b.router.stats.stats("q/m").uptimeLast5m).toBe(0);
  });

  test("1,000 records in one turn go out as one PUBLISH, and all arrive", async () => {
    const a = await c.instance();
    const b = await c.instance();
    const raw = await listenRaw(url, redisNames(c.prefix).routerChannel);
    for (let i = 0; i < 1_000; i++) a.router.stats.record("p/batch", true, 100 + i, 50);
    await eventually(() => b.router.stats.stats("p/batch").requestsLast30m === 1_000);
    await Bun.sleep(30);
    expect(raw.messages.length).toBe(1);
    const message = JSON.parse(raw.messages[0]!);
    expect(message.i).toBe(a.shared.instanceId);
    expect(message.e.length).toBe(1_000);
    expect(message.e[0]).toEqual(["sr", "p/batch", 1, 100, 50, c.clock()]);
    expect(b.router.stats.stats("p/batch")).toEqual(a.router.stats.stats("p/batch"));
    raw.close();
  });

  test("records replayed quietly (the rebuild at start) stay on their instance", async () => {
    const a = await c.instance();
    const b = await c.instance();
    a.router.stats.quietly(() => {
      for (let i = 0; i < 10; i++) a.router.stats.record("p/replay", true, 100, null);
    });
    await a.router.stats.quietly(async () => {
      await Bun.sleep(1);
      a.router.stats.record("p/replay", true, 100, null);
    });
    a.router.stats.record("p/replay", false, null, null); // a live one after it: sent
    await eventually(() => b.router.stats.stats("p/replay").requestsLast30m === 1);
    await Bun.sleep(30);
    expect(b.router.stats.stats("p/replay").requestsLast30m).toBe(1);
    expect(a.router.stats.stats("p/replay").requestsLast30m).toBe(12);
  });

  test("records filed long ago here (a replay that forgot quietly) are not sent", async () => {
    const a = await c.instance();
    const b = await c.instance();
    const raw = await listenRaw(url, redisNames(c.prefix).routerChannel);
    a.router.stats.record("p/old", false, null, null, c.clock() - 45 * 60_000);
    a.router.stats.record("p/old", true, 100, null);
    await eventually(() => b.router.stats.stats("p/old").requestsLast30m === 1);
    await Bun.sleep(20);
    expect(raw.messages.map((m) => JSON.parse(m).e)).toEqual([[["sr", "p/old", 1, 100, null, c.clock()]]]);
    raw.close();
    expect(a.router.stats.stats("p/old").uptimeLast1d).toBe(50);
    expect(b.router.stats.stats("p/old").uptimeLast1d).toBe(100);
  });

  test("what another instance sends is checked: far-off clocks, malformed and unknown events are skipped", async () => {
    const b = await c.instance();
    const raw = new RedisClient(url);
    const channel = redisNames(c.prefix).routerChannel;
    await raw.publish(channel, "not json");
    await raw.publish(channel, JSON.stringify({ i: "elsewhere", e: "not a list" }));
    const now = c.clock();
    const events = [
      ["sr", "p/skew", 0, null, null, now - 45 * 60_000], // would wipe a bucket of another period
      ["sr", "p/skew", 0, "slow", null, now],
      ["sr", 42, 0, null, null, now],
      ["cf", "p/skew", "yesterday", null],
      ["zz", "from a newer instance"],
      ["constructor"],
      "not an event",
      ["sr", "p/skew", 1, 100, null, now], // the one valid event
    ];
    await raw.publish(channel, JSON.stringify({ i: "elsewhere", e: events }));
    raw.close();
    await eventually(() => b.router.stats.stats("p/skew").requestsLast30m === 1);
    await Bun.sleep(20);
    expect(b.router.stats.stats("p/skew").uptimeLast1d).toBe(100);
    expect(b.router.circuits.snapshot("p/skew")).toBeUndefined();
    expect(b.router.stats.size).toBe(1); // no series under a number's name
  });
});
