import { describe, expect, test } from "bun:test";
import { createRouterState } from "../../src/gateway/routing/router-state";
import { silentLogger } from "../../src/logger";
import { type CacheTopic, createSharedState } from "../../src/shared-state";
import { ROUTING, testClock } from "./instances";

// no Redis needed: these always run
describe("shared state in memory (one instance)", () => {
  const open = () => createSharedState({ prefix: "gw-test:memory:", instanceId: "solo", logger: silentLogger });

  test("is ready, and its bus calls this process's listeners at once", async () => {
    const shared = await open();
    expect(shared.kind).toBe("memory");
    expect(await shared.ready()).toBe(true);
    const heard: CacheTopic[] = [];
    const off = shared.bus.subscribe((t) => heard.push(t));
    shared.bus.subscribe(() => {
      throw new Error("a broken listener must not stop the others");
    });
    shared.bus.subscribe((t) => heard.push(t));
    shared.bus.publish("keys");
    expect(heard).toEqual(["keys", "keys"]);
    off();
    shared.bus.publish("byok");
    expect(heard).toEqual(["keys", "keys", "byok"]);
    await shared.close();
  });

  test("routing state behaves as without shared state", async () => {
    const shared = await open();
    const { clock, tick } = testClock();
    const router = createRouterState(ROUTING, clock, shared);
    for (let i = 0; i < 3; i++) router.circuits.failure("p/x");
    expect(router.circuits.health("p/x")).toBe("open");
    tick(1_000);
    expect(router.circuits.claimProbe("p/x")).toBe(true);
    expect(router.circuits.claimProbe("p/x")).toBe(false);
    router.circuits.success("p/x");
    expect(router.circuits.health("p/x")).toBe("healthy");
    router.stats.record("p/x", true, 100, 50);
    expect(router.stats.stats("p/x").requestsLast30m).toBe(1);
    router.sessions.set("s", "p/x");
    expect(router.sessions.get("s")).toBe("p/x");
    await shared.close();
  });
});
