import { afterAll, expect, test } from "bun:test";
import { createRouterState, type RouterState } from "../../src/gateway/routing/router-state";
import { describeRedis } from "../support/redis";
import { cluster, ROUTING } from "./instances";

/** what a served request with a session does to the routing state */
function request(r: RouterState, i: number): void {
  const session = `ws\u0000s${i % 500}`;
  r.circuits.health("p/a");
  r.sessions.get(session);
  r.circuits.success("p/a");
  r.stats.record("p/a", true, 100 + (i % 700), 40 + (i % 90));
  r.sessions.set(session, "p/a");
}

/** µs per request: the request's own (synchronous) part, and with the end-of-turn flush */
async function measure(r: RouterState, turns: number, perTurn: number): Promise<{ sync: number; total: number }> {
  let sync = 0;
  let total = 0;
  for (let t = 0; t < turns; t++) {
    const start = Bun.nanoseconds();
    for (let i = 0; i < perTurn; i++) request(r, t * perTurn + i);
    sync += Bun.nanoseconds() - start;
    await new Promise((resolve) => setImmediate(resolve));
    total += Bun.nanoseconds() - start;
  }
  const n = turns * perTurn * 1000;
  return { sync: sync / n, total: total / n };
}

describeRedis("cost of replication on the hot path", (url) => {
  const c = cluster(url, "overhead");
  afterAll(() => c.close());

  test("queueing costs about a microsecond per request; one PUBLISH per turn is the rest", async () => {
    const local = createRouterState(ROUTING, Date.now);
    const { router: replicated } = await c.instance();
    for (const perTurn of [1, 10, 100]) {
      await measure(local, 200, perTurn); // warm-up
      await measure(replicated, 200, perTurn);
      const l = await measure(local, 2_000, perTurn);
      const r = await measure(replicated, 2_000, perTurn);
      const sync = r.sync - l.sync;
      const total = r.total - l.total;
      console.log(
        `replication overhead, ${perTurn} request(s) per turn: ${sync.toFixed(2)} µs/request synchronous, ${total.toFixed(2)} µs/request with the flush`,
      );
      // generous bounds: a loaded CI machine must not make this flaky
      expect(sync).toBeLessThan(10);
      expect(total).toBeLessThan(100);
    }
  });
});
