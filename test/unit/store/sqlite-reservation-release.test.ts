// SQLite keeps reservations in the process's memory: a hold leaves it only once the generation
// commit that releases it has committed. A COMMIT that fails (here a deferred foreign key, which
// SQLite checks only at COMMIT) keeps the hold, and the writer's retry releases it with the spend.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { GenerationWriter } from "../../../src/gateway/generation-writer";
import { settlement } from "../../../src/gateway/record";
import { silentLogger } from "../../../src/logger";
import { createSqliteStore } from "../../../src/store/sqlite";
import { generation, NOW, reservation, sleep, TODAY, usageRow } from "../../store/contract/fixtures";
import { tempDir } from "../../support/gateway";

test("a generation commit whose COMMIT fails keeps the reservation held until the writer's retry commits it", async () => {
  const dir = tempDir("gw-release-");
  const path = join(dir, "gateway.db");
  const store = createSqliteStore(path);
  const side = new Database(path);
  try {
    side.exec(`CREATE TABLE commit_gate (id TEXT PRIMARY KEY);
CREATE TABLE commit_blocker (gate TEXT REFERENCES commit_gate(id) DEFERRABLE INITIALLY DEFERRED);
CREATE TRIGGER fail_at_commit AFTER INSERT ON generations BEGIN INSERT INTO commit_blocker VALUES ('closed'); END;`);
    const writer = new GenerationWriter(store, silentLogger, { retryEveryMs: 10 });
    expect(await store.reservations.reserve(reservation("r1", "k", 1000, 600))).toBeNull();

    await expect(writer.commit(settlement(generation("g1", "k", 100, { createdAt: NOW }), NOW, "r1"))).rejects.toThrow("FOREIGN KEY");
    expect(await store.generations.get("g1")).toBeUndefined();
    expect(await store.usage.get("k")).toEqual(usageRow("k", TODAY, {}));
    expect(await store.reservations.held("k")).toBe(600);
    expect(await store.reservations.openCount()).toBe(1);
    // the hold still counts: 400 is left, not 1000
    expect(await store.reservations.reserve(reservation("probe", "k", 1000, 401))).toBe(400);

    side.exec("DROP TRIGGER fail_at_commit");
    for (let i = 0; i < 200 && (await store.reservations.held("k")) > 0; i++) await sleep(10);
    expect(await store.reservations.held("k")).toBe(0);
    expect(await store.reservations.openCount()).toBe(0);
    expect((await store.usage.get("k"))?.total).toBe(100);
    expect(await store.reservations.reserve(reservation("r2", "k", 1000, 900))).toBeNull();
    expect(await store.reservations.reserve(reservation("r3", "k", 1000, 1))).toBe(0);
  } finally {
    side.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
