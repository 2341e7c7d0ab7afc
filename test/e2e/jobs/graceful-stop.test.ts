// SIGTERM of `serve` while its worker runs jobs: it stops leasing, lets a job that ends soon
// finish, gives back the lease of one that would not (pending again, the attempt not counted),
// and the process exits within 10 s.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSqliteStore } from "../../../src/store/sqlite";
import { tempDir } from "../../support/gateway";
import { startGatewayProcess } from "../../support/gateway-process";
import { startJobReceiver } from "../../support/job-receiver";

test("SIGTERM: a short job finishes, a long one is given back, the process exits within 10 s", async () => {
  const dir = tempDir("gw-jobs-term-");
  const receiver = startJobReceiver();
  await Bun.write(join(dir, "gateway.yaml"), "jobs:\n  poll_seconds: 0.1\n");
  const env = { DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: join(dir, "gateway.yaml"), WORKERS: "1" };
  const gw = await startGatewayProcess(env, ["bun", "test/support/gateway-entry.ts", "job-kinds.ts"]);
  const store = createSqliteStore(join(dir, "g.db"), { migrate: false });
  try {
    const now = Date.now();
    await store.jobs.enqueue({ id: "short", kind: "test.call", payload: { url: receiver.url, workMs: 1000 }, runAt: now, now });
    await store.jobs.enqueue({ id: "long", kind: "test.call", payload: { url: receiver.url, workMs: 60_000 }, runAt: now, now });
    for (let i = 0; receiver.active() < 2 && i < 300; i++) await Bun.sleep(10);
    expect(receiver.active()).toBe(2);
    const stopping = Date.now();
    gw.proc.kill("SIGTERM");
    expect(await gw.proc.exited).toBe(0);
    const took = Date.now() - stopping;
    console.log(`graceful stop: exited ${took} ms after SIGTERM`);
    expect(took).toBeLessThan(10_000);
    expect(receiver.done.get("short")).toBe(1);
    expect(await store.jobs.get("short")).toMatchObject({ state: "done", attempts: 1 });
    expect(await store.jobs.get("long")).toMatchObject({ state: "pending", attempts: 0, leaseOwner: null, leaseExpiresAt: null });
  } finally {
    await store.close();
    receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
