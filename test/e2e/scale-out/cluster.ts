/**
 * Two gateway processes on one PostgreSQL database and one Redis, as a team runs them behind a
 * load balancer. Each cluster gets a database and a Redis prefix of its own.
 */
import { describe } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { tempDir } from "../../support/gateway";
import { type GatewayProcess, startGatewayProcess } from "../../support/gateway-process";
import { createTestDatabase } from "../../support/postgres";
import { cleanupPrefix, TEST_REDIS_URL, uniquePrefix } from "../../support/redis";

const SECRET = "a".repeat(64);
let announced = false;

/** `describe` when both TEST_DATABASE_URL and TEST_REDIS_URL are set; otherwise one line saying why it was skipped. */
export function describeCluster(label: string, fn: () => void): void {
  const missing = [process.env.TEST_DATABASE_URL ? null : "TEST_DATABASE_URL", TEST_REDIS_URL ? null : "TEST_REDIS_URL"].filter(Boolean);
  if (missing.length > 0 && !announced) {
    announced = true;
    console.warn(`Scale-out tests skipped: ${missing.join(" and ")} not set (they run two gateways on PostgreSQL + Redis)`);
  }
  describe.skipIf(missing.length > 0)(label, fn);
}

export type Cluster = {
  a: GatewayProcess;
  b: GatewayProcess;
  env: Record<string, string>;
  /** a direct connection to the cluster's database, for what no API shows (reservations) */
  sql: SQL;
  close(): Promise<void>;
};

export async function startCluster(yaml: string, env: Record<string, string> = {}): Promise<Cluster> {
  const db = await createTestDatabase();
  const prefix = uniquePrefix("cluster");
  const dir = tempDir("gw-cluster-");
  const config = join(dir, "gateway.yaml");
  await Bun.write(config, yaml);
  const shared = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: prefix, GATEWAY_SECRET_KEY: SECRET, GATEWAY_CONFIG: config, ...env };
  // both start at once on an empty database: one migrates, the other waits for it
  const [a, b] = await Promise.all([
    startGatewayProcess({ ...shared, GATEWAY_INSTANCE_ID: "a" }),
    startGatewayProcess({ ...shared, GATEWAY_INSTANCE_ID: "b" }),
  ]);
  const sql = new SQL(db.url, { max: 2 });
  const cluster: Cluster = {
    a,
    b,
    env: shared,
    sql,
    async close() {
      // a test may have replaced an instance it killed
      await Promise.all([cluster.a.stop(), cluster.b.stop()]);
      await sql.close();
      await db.drop();
      await cleanupPrefix(TEST_REDIS_URL!, prefix);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
