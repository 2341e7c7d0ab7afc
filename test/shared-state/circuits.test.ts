import { afterAll, expect, test } from "bun:test";
import { redisNames } from "../../src/shared-state/redis-names";
import { describeRedis, eventually, listenRaw } from "../support/redis";
import { cluster } from "./instances";

// ROUTING: 3 failures open a circuit for 1,000 ms
describeRedis("circuits across instances", (url) => {
  const c = cluster(url, "circuits");
  afterAll(() => c.close());

  test("a circuit opened by failures on A is open on B", async () => {
    const a = await c.instance();
    const b = await c.instance();
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/open");
    expect(a.router.circuits.health("p/open")).toBe("open");
    await eventually(() => b.router.circuits.health("p/open") === "open");
    expect(b.router.circuits.snapshot("p/open")).toEqual(a.router.circuits.snapshot("p/open")!);
  });

  test("failures seen on different instances add up to one count", async () => {
    const a = await c.instance();
    const b = await c.instance();
    a.router.circuits.failure("p/sum");
    await eventually(() => b.router.circuits.snapshot("p/sum")?.consecutive === 1);
    b.router.circuits.failure("p/sum");
    await eventually(() => a.router.circuits.snapshot("p/sum")?.consecutive === 2);
    expect(a.router.circuits.health("p/sum")).toBe("healthy");
    a.router.circuits.failure("p/sum");
    await eventually(() => b.router.circuits.health("p/sum") === "open");
  });

  test("after the cooldown one probe in the whole cluster; its success closes the circuit everywhere", async () => {
    const a = await c.instance();
    const b = await c.instance();
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/probe");
    await eventually(() => b.router.circuits.health("p/probe") === "open");
    c.tick(999);
    expect(b.router.circuits.health("p/probe")).toBe("open");
    expect(b.router.circuits.claimProbe("p/probe")).toBe(false);
    c.tick(1);
    expect(a.router.circuits.health("p/probe")).toBe("probe");
    expect(b.router.circuits.health("p/probe")).toBe("probe");
    expect(b.router.circuits.claimProbe("p/probe")).toBe(true);
    // A hears of B's claim and lets its own requests wait: the claim is a lease of one cooldown
    await eventually(() => a.router.circuits.health("p/probe") === "open");
    expect(a.router.circuits.claimProbe("p/probe")).toBe(false);
    b.router.circuits.success("p/probe");
    await eventually(() => a.router.circuits.health("p/probe") === "healthy");
    expect(a.router.circuits.snapshot("p/probe")).toEqual({ consecutive: 0, openUntil: 0, retryAfterUntil: 0 });
  });

  test("a failed probe reopens the circuit for a full cooldown on every instance", async () => {
    const a = await c.instance();
    const b = await c.instance();
    for (let i = 0; i < 3; i++) a.router.circuits.failure("p/reopen");
    await eventually(() => b.router.circuits.health("p/reopen") === "open");
    c.tick(1_000);
    expect(a.router.circuits.claimProbe("p/reopen")).toBe(true);
    a.router.circuits.failure("p/reopen");
    await eventually(() => b.router.circuits.snapshot("p/reopen")?.consecutive === 4);
    c.tick(999);
    expect(b.router.circuits.health("p/reopen")).toBe("open");
    c.tick(1);
    expect(b.router.circuits.health("p/reopen")).toBe("probe");
  });

  test("a Retry-After hold on A holds the endpoint back on B for as long, below N failures", async () => {
    const a = await c.instance();
    const b = await c.instance();
    a.router.circuits.failure("p/hold", 5_000);
    expect(a.router.circuits.health("p/hold")).toBe("open");
    await eventually(() => b.router.circuits.health("p/hold") === "open");
    c.tick(4_999);
    expect(b.router.circuits.health("p/hold")).toBe("open");
    c.tick(1);
    expect(b.router.circuits.health("p/hold")).toBe("healthy");
    expect(a.router.circuits.health("p/hold")).toBe("healthy");
  });

  test("successes that close nothing send nothing (the common case costs no message)", async () => {
    const a = await c.instance();
    const raw = await listenRaw(url, redisNames(c.prefix).routerChannel);
    a.router.circuits.failure("p/quiet");
    a.router.circuits.success("p/quiet"); // closes something: sent, in the same message
    await eventually(() => raw.messages.length === 1);
    for (let i = 0; i < 100; i++) a.router.circuits.success("p/quiet"); // nothing left to close
    a.router.circuits.failure("p/quiet-2"); // then one change, so we know the channel was heard
    await eventually(() => raw.messages.length === 2);
    await Bun.sleep(20);
    const at = c.clock();
    expect(raw.messages.map((m) => JSON.parse(m).e)).toEqual([
      [
        ["cf", "p/quiet", at, null],
        ["cs", "p/quiet"],
      ],
      [["cf", "p/quiet-2", at, null]],
    ]);
    raw.close();
  });
});
