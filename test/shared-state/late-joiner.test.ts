import { afterAll, expect, test } from "bun:test";
import { describeRedis, eventually } from "../support/redis";
import { cluster } from "./instances";

describeRedis("an instance that starts later", (url) => {
  const c = cluster(url, "late");
  afterAll(() => c.close());

  test("sees circuits opened and sessions pinned before it started, and nothing that was closed", async () => {
    const a = await c.instance();
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/down");
    a.router.circuits.failure("p/held", 10_000);
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/recovered");
    a.router.circuits.success("p/recovered");
    a.router.circuits.failure("p/flaky"); // below the threshold: nothing to keep
    a.router.sessions.set("s-1", "p/up");
    a.router.sessions.set("s-2", "p/other");
    await Bun.sleep(30); // the end of the turn sends; give Redis the writes

    const late = await c.instance();
    expect(late.router.circuits.health("p/down")).toBe("open");
    expect(late.router.circuits.snapshot("p/down")).toEqual(a.router.circuits.snapshot("p/down")!);
    expect(late.router.circuits.health("p/held")).toBe("open");
    expect(late.router.circuits.health("p/recovered")).toBe("healthy");
    expect(late.router.circuits.snapshot("p/flaky")).toBeUndefined();
    expect(late.router.sessions.get("s-1")).toBe("p/up");
    expect(late.router.sessions.get("s-2")).toBe("p/other");

    // its cooldown ends when it ends on A; the half-open probe is still shared
    c.tick(1_000);
    expect(late.router.circuits.health("p/down")).toBe("probe");
    expect(late.router.circuits.claimProbe("p/down")).toBe(true);
    await eventually(() => a.router.circuits.health("p/down") === "open");
    late.router.circuits.success("p/down");
    await eventually(() => a.router.circuits.health("p/down") === "healthy");
    await Bun.sleep(30);
    const later = await c.instance();
    expect(later.router.circuits.health("p/down")).toBe("healthy");
  });

  test("what is kept expires with the state it keeps (PX)", async () => {
    const a = await c.instance();
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/ttl");
    a.router.sessions.set("s-ttl", "p/ttl");
    await Bun.sleep(30);
    const { RedisClient } = await import("bun");
    const raw = new RedisClient(url);
    const circuitTtl = Number(await raw.send("PTTL", [`${c.prefix}kept:circuit:p%2Fttl`]));
    const sessionTtl = Number(await raw.send("PTTL", [`${c.prefix}kept:session:s-ttl`]));
    raw.close();
    // cooldown (1 s) plus an hour of half-open memory; the session's hour
    expect(circuitTtl).toBeGreaterThan(60 * 60_000);
    expect(circuitTtl).toBeLessThanOrEqual(60 * 60_000 + 1_000);
    expect(sessionTtl).toBeGreaterThan(60 * 60_000 - 5_000);
    expect(sessionTtl).toBeLessThanOrEqual(60 * 60_000);
  });

  test("a session's kept key is rewritten when its endpoint changes or a minute has passed, not on every request", async () => {
    const a = await c.instance();
    const { RedisClient } = await import("bun");
    const raw = new RedisClient(url);
    const kept = async () => JSON.parse(String(await raw.get(`${c.prefix}kept:session:s-refresh`)));
    const t0 = c.clock();
    a.router.sessions.set("s-refresh", "p/1");
    await Bun.sleep(20);
    expect(await kept()).toEqual({ e: "p/1", at: t0 });
    c.tick(30_000);
    a.router.sessions.set("s-refresh", "p/1");
    await Bun.sleep(20);
    expect(await kept()).toEqual({ e: "p/1", at: t0 });
    a.router.sessions.set("s-refresh", "p/2");
    await Bun.sleep(20);
    expect(await kept()).toEqual({ e: "p/2", at: t0 + 30_000 });
    c.tick(60_000);
    a.router.sessions.set("s-refresh", "p/2");
    await Bun.sleep(20);
    expect(await kept()).toEqual({ e: "p/2", at: t0 + 90_000 });
    raw.close();
  });
});
