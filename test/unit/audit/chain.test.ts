// The audit log's hash chain on both dialects: events recorded through recordChange verify; an
// edited, removed (oldest, middle, newest) or reordered row is named by verifyChain; a retention
// purge leaves what is kept verifiable.
import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { systemOrigin } from "../../../src/audit/origin";
import { recordChange } from "../../../src/audit/record";
import { purgeAuditEvents } from "../../../src/audit/retention";
import { verifyChain } from "../../../src/audit/verify";
import { createPgStore } from "../../../src/store/pg";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { createTestDatabase, describePostgres, resetDatabase } from "../../support/postgres";

const T0 = Date.parse("2030-01-01T00:00:00Z");
const origin = systemOrigin("chain test");

/** Ten events, one a second from T0, each renaming a key. */
async function recordTen(store: Store): Promise<void> {
  for (let i = 1; i <= 10; i++)
    await store.transaction((tx) =>
      recordChange(tx, T0 + i * 1000, origin, {
        action: "key.update",
        target: { type: "key", id: "k" },
        changes: { name: { from: `n${i - 1}`, to: `n${i}` } },
      }),
    );
}

type Dialect = { open(): Promise<Store>; sql(statement: string): Promise<void>; close(): Promise<void> };

function chainSuite(name: string, dialect: () => Dialect): void {
  describe(`audit chain: ${name}`, () => {
    let store: Store;
    const run = (statement: string) => dialect().sql(statement);
    beforeAll(async () => {
      store = await dialect().open();
    });
    afterEach(async () => {
      await store.close();
      store = await dialect().open();
    });
    afterAll(async () => {
      await store.close();
      await dialect().close();
    });

    test("ten events verify, numbered 1 to 10, each linked to the one before", async () => {
      await recordTen(store);
      expect(await verifyChain(store)).toEqual({ ok: true, events: 10, first: 1, last: 10 });
      const events = await store.audit.inOrder(-1, 100);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(events[0]!.prevHash).toBe("0".repeat(64));
      for (let i = 1; i < 10; i++) expect(events[i]!.prevHash).toBe(events[i - 1]!.hash);
    });

    test("an edited row is named, and so is an edited hash that was recomputed from the old link", async () => {
      await recordTen(store);
      await run(`update audit_events set changes = '{"name":{"from":"n3","to":"evil"}}' where seq = 4`);
      expect(await verifyChain(store)).toEqual({ ok: false, events: 3, seq: 4, reason: "its hash does not match its content: the event was edited" });
      await run(`update audit_events set actor_label = 'someone else' where seq = 2`);
      expect(await verifyChain(store)).toMatchObject({ ok: false, seq: 2 });
    });

    test("a removed event in the middle, the oldest, or the newest is named", async () => {
      await recordTen(store);
      await run("delete from audit_events where seq = 6");
      expect(await verifyChain(store)).toEqual({ ok: false, events: 5, seq: 7, reason: "event 6 is missing (the next one kept is 7)" });
      await run("delete from audit_events where seq >= 6");
      expect(await verifyChain(store)).toEqual({
        ok: false,
        events: 5,
        seq: 6,
        reason: "the log ends at event 5 but its head is event 10: newer events were removed or changed",
      });
      await run("delete from audit_events where seq = 1");
      expect(await verifyChain(store)).toEqual({ ok: false, events: 0, seq: 2, reason: "event 1 is missing (the next one kept is 2)" });
    });

    test("a row renumbered into a gap still breaks its link", async () => {
      await recordTen(store);
      await run("delete from audit_events where seq = 5");
      await run("update audit_events set seq = 5 where seq = 6");
      expect(await verifyChain(store)).toMatchObject({ ok: false, seq: 5 });
    });

    test("a purge keeps the rest verifiable from the oldest kept event; new events chain on, even after every row went", async () => {
      await recordTen(store);
      expect(await purgeAuditEvents(store, T0 + 4500)).toBe(4);
      expect(await verifyChain(store)).toEqual({ ok: true, events: 6, first: 5, last: 10 });
      expect(await purgeAuditEvents(store, T0 + 60_000)).toBe(6);
      expect(await verifyChain(store)).toEqual({ ok: true, events: 0, first: null, last: null });
      await store.transaction((tx) => recordChange(tx, T0 + 61_000, origin, { action: "user.create", target: { type: "user", id: "u" } }));
      expect(await verifyChain(store)).toEqual({ ok: true, events: 1, first: 11, last: 11 });
      // the oldest kept event removed behind the purge's back
      await recordTen(store);
      await run("delete from audit_events where seq = 11");
      expect(await verifyChain(store)).toMatchObject({ ok: false, seq: 12, reason: "event 11 is missing (the next one kept is 12)" });
    });

    test("an event recorded in a transaction that fails leaves no trace in the chain", async () => {
      await recordTen(store);
      await expect(
        store.transaction(async (tx) => {
          await recordChange(tx, T0 + 11_000, origin, { action: "key.delete", target: { type: "key", id: "k" } });
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      expect(await verifyChain(store)).toEqual({ ok: true, events: 10, first: 1, last: 10 });
    });
  });
}

let sqliteDir = "";
chainSuite("sqlite", () => ({
  async open() {
    sqliteDir ||= tempDir("gw-audit-chain-");
    rmSync(join(sqliteDir, "g.db"), { force: true });
    rmSync(join(sqliteDir, "g.db-wal"), { force: true });
    rmSync(join(sqliteDir, "g.db-shm"), { force: true });
    return createSqliteStore(join(sqliteDir, "g.db"));
  },
  async sql(statement) {
    const db = new Database(join(sqliteDir, "g.db"));
    db.exec(statement);
    db.close();
  },
  async close() {
    rmSync(sqliteDir, { recursive: true, force: true });
  },
}));

describePostgres("audit chain on postgres", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  chainSuite("postgres", () => ({
    async open() {
      db ??= await createTestDatabase();
      await resetDatabase(db.url);
      return createPgStore(db.url, { poolSize: 2 });
    },
    async sql(statement) {
      const client = new SQL(db!.url);
      await client.unsafe(statement);
      await client.close();
    },
    async close() {
      await db?.drop();
    },
  }));
});
