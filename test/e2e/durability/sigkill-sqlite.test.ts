// SIGKILL of a single SQLite instance under load: every answer a client received in full has
// its generation after the restart, the key's spend equals the sum of those generations, and
// no reservation is left held.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/gateway";
import { startGatewayProcess } from "../../support/gateway-process";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { provider, runLoad } from "./load";

let up: MockUpstream;
beforeAll(async () => {
  up = await startMockUpstream();
  up.setHandler(() => ({ text: ["a", "b", "c", "d"], chunkDelayMs: 2, usage: { input: 10, output: 4 } }));
});
afterAll(() => up.stop());

const ROUNDS = 3;

test("SIGKILL under load loses no completed answer, no spend, and leaves no reservation held", async () => {
  const dir = tempDir("gw-sigkill-");
  const yaml = join(dir, "gateway.yaml");
  await Bun.write(yaml, provider(up.url));
  const env = { DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: yaml };
  const report: string[] = [];
  try {
    let gw = await startGatewayProcess(env);
    const created = (await (await gw.api("/api/v1/keys", { method: "POST", json: { name: "crash", limit: 1000 } })).json()) as {
      key: string;
      data: { hash: string };
    };
    const acknowledged: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const killAt = Bun.sleep(300 + Math.floor(Math.random() * 500)).then(() => gw.kill());
      const load = await runLoad([gw.url], created.key, 16, killAt);
      acknowledged.push(...load.completed);
      gw = await startGatewayProcess(env);
      const missing: string[] = [];
      for (const id of load.completed) if ((await gw.api(`/api/v1/generation?id=${id}`)).status !== 200) missing.push(id);
      report.push(`round ${round + 1}: ${load.completed.length} completed, ${load.failed} cut, ${missing.length} missing`);
      expect(missing).toEqual([]);
    }
    const usage = ((await (await gw.api("/api/v1/key", { key: created.key })).json()) as { data: { usage: number } }).data.usage;
    await gw.stop();
    const db = new Database(join(dir, "g.db"), { readonly: true });
    const sums = db.query("SELECT count(*) AS n, coalesce(sum(cost_nanos), 0) AS cost FROM generations WHERE key_hash = ?").get(created.data.hash) as {
      n: number;
      cost: number;
    };
    const held = db.query("SELECT (SELECT count(*) FROM reservations) AS rows, (SELECT coalesce(sum(held), 0) FROM key_usage) AS held").get() as {
      rows: number;
      held: number;
    };
    db.close();
    console.log(`sigkill sqlite: ${report.join("; ")}; ${acknowledged.length} acknowledged, ${sums.n} recorded`);
    expect(acknowledged.length).toBeGreaterThan(100);
    expect(sums.n).toBeGreaterThanOrEqual(acknowledged.length);
    expect(Math.round(usage * 1e9)).toBe(sums.cost);
    expect(held).toEqual({ rows: 0, held: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
