// SIGKILL of one of two instances on PostgreSQL + Redis under load: every answer a client
// received in full (from either instance) has its generation, and the dead instance's
// reservations are released by the survivor once their lease runs out.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startGatewayProcess } from "../../support/gateway-process";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { type Cluster, describeCluster, startCluster } from "../scale-out/cluster";
import { provider, runLoad } from "./load";

const LEASE_MS = 2_000;
let up: MockUpstream;
let cluster: Cluster;

describeCluster("SIGKILL on PostgreSQL + Redis", () => {
  beforeAll(async () => {
    up = await startMockUpstream();
    up.setHandler(() => ({ text: ["a", "b", "c", "d"], chunkDelayMs: 2, usage: { input: 10, output: 4 } }));
    cluster = await startCluster(provider(up.url), { GATEWAY_RESERVATION_LEASE_MS: String(LEASE_MS) });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    up?.stop();
  });

  test("no completed answer is lost and the dead instance's reservations are released after the lease", async () => {
    const created = (await (await cluster.a.api("/api/v1/keys", { method: "POST", json: { name: "crash", limit: 1000 } })).json()) as {
      key: string;
      data: { hash: string };
    };
    const report: string[] = [];
    let acknowledged = 0;
    for (let round = 0; round < 3; round++) {
      const killAt = Bun.sleep(300 + Math.floor(Math.random() * 500)).then(() => cluster.a.kill());
      // both instances take load; the survivor goes on serving until the load stops
      const load = await runLoad(
        [cluster.a.url, cluster.b.url],
        created.key,
        16,
        killAt.then(() => Bun.sleep(100)),
      );
      acknowledged += load.completed.length;
      const missing: string[] = [];
      for (const id of load.completed) if ((await cluster.b.api(`/api/v1/generation?id=${id}`)).status !== 200) missing.push(id);
      const [held] = await cluster.sql`select count(*)::int as n from reservations where instance_id = 'a'`;
      report.push(
        `round ${round + 1}: ${load.completed.length} completed, ${load.failed} cut, ${missing.length} missing, ${held.n} reservations of the dead instance`,
      );
      expect(missing).toEqual([]);
      // the survivor releases what the dead instance held once the lease has passed
      const deadline = Date.now() + LEASE_MS + 3_000;
      let left = { rows: -1, held: -1 };
      while (Date.now() < deadline) {
        const [r] = await cluster.sql`select (select count(*) from reservations)::int as rows, (select coalesce(sum(held), 0) from key_usage)::bigint as held`;
        left = { rows: r.rows, held: Number(r.held) };
        if (left.rows === 0 && left.held === 0) break;
        await Bun.sleep(100);
      }
      expect(left).toEqual({ rows: 0, held: 0 });
      cluster.a = await startGatewayProcess({ ...cluster.env, GATEWAY_INSTANCE_ID: "a" });
    }
    const [spent] =
      await cluster.sql`select coalesce(sum(cost_nanos), 0)::bigint as n, count(*)::int as c from generations where key_hash = ${created.data.hash}`;
    const [usage] = await cluster.sql`select total from key_usage where hash = ${created.data.hash}`;
    console.log(`sigkill postgres: ${report.join("; ")}; ${acknowledged} acknowledged, ${spent.c} recorded`);
    expect(acknowledged).toBeGreaterThan(100);
    expect(spent.c).toBeGreaterThanOrEqual(acknowledged);
    expect(Number(usage.total)).toBe(Number(spent.n));
  }, 120_000);
});
