// The store contract on PostgreSQL (one database for this file, emptied before every test), and
// what only several instances on one database can show: reservations, transactions and presets
// racing across pools, migrations started twice at once, ready() once the database is gone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPgStore, runPgMigrations } from "../../src/store/pg";
import { openPool } from "../../src/store/pg/client";
import { migrations } from "../../src/store/pg/migrations.generated";
import type { Store } from "../../src/store/store";
import { createTestDatabase, describePostgres, resetDatabase } from "../support/postgres";
import { storeContract } from "./contract";
import { generation, reservation, settled, sleep } from "./contract/fixtures";

describePostgres("postgres store", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  storeContract("postgres", async () => {
    await resetDatabase(db.url);
    const store = await createPgStore(db.url, { poolSize: 10 });
    return { store, close: () => store.close() };
  });

  describe("several instances on one database", () => {
    const stores: Store[] = [];
    const open = async (n: number) => {
      await resetDatabase(db.url);
      const opened = await Promise.all(Array.from({ length: n }, () => createPgStore(db.url, { poolSize: 10 })));
      stores.push(...opened);
      return opened;
    };
    const closeAll = () => Promise.all(stores.splice(0).map((s) => s.close()));

    test("two pools racing 2 x 100 reserves against one limit never exceed it", async () => {
      const [a, b] = await open(2);
      const race = (s: Store, prefix: string) => Array.from({ length: 100 }, (_, i) => s.reservations.reserve(reservation(`${prefix}${i}`, "k", 1000, 7)));
      const results = await Promise.all([...race(a!, "a"), ...race(b!, "b")]);
      expect(results.filter((r) => r === null).length).toBe(142);
      expect(new Set(results.filter((r) => r !== null))).toEqual(new Set([6]));
      expect(await a!.reservations.held("k")).toBe(994);
      await closeAll();
    });

    test("transactions of two pools are serialised with each other", async () => {
      const [a, b] = await open(2);
      await a!.meta.set("n", "0");
      const increment = (s: Store) =>
        s.transaction(async (tx) => {
          const n = Number(await tx.meta.get("n"));
          await sleep(5);
          await tx.meta.set("n", String(n + 1));
        });
      await Promise.all(Array.from({ length: 10 }, (_, i) => increment(i % 2 ? a! : b!)));
      expect(await b!.meta.get("n")).toBe("10");
      await closeAll();
    });

    test("presets appended through two pools at once get consecutive versions", async () => {
      const [a, b] = await open(2);
      const add = (s: Store, i: number) =>
        s.presets.appendVersion({
          workspaceId: "w",
          slug: "p",
          config: { i },
          systemPrompt: null,
          format: "openai-chat",
          creatorUserId: null,
          creatorId: null,
          now: i,
        });
      await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2 ? a! : b!, i)));
      const preset = (await a!.presets.find("w", "p"))!;
      expect((await a!.presets.listVersions(preset.id, 0, 100)).map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      await closeAll();
    });
  });

  test("a generation with strings PostgreSQL text cannot hold is stored, and charged, with U+FFFD in their place", async () => {
    await resetDatabase(db.url);
    const store = await createPgStore(db.url);
    try {
      const record = generation("g1", "k", 100, { externalUser: "a\u0000b", sessionId: "c\ud800d", trace: { t: "x\u0000\ud800y" } });
      await store.generations.commit([settled(record)]);
      expect(await store.generations.get("g1")).toEqual({ ...record, externalUser: "a\uFFFDb", sessionId: "c\uFFFDd" });
      expect((await store.usage.get("k"))?.total).toBe(100);
    } finally {
      await store.close();
    }
  });

  describe("migrations", () => {
    test("two stores migrating one empty database at once both succeed; each migration is applied once", async () => {
      const fresh = await createTestDatabase();
      try {
        const [a, b] = await Promise.all([createPgStore(fresh.url), createPgStore(fresh.url)]);
        expect([await a.ready(), await b.ready()]).toEqual([true, true]);
        await Promise.all([a.close(), b.close()]);
        // the same race one level down, where each run says what it applied
        const again = await createTestDatabase();
        try {
          const pools = [openPool(again.url, 2).client, openPool(again.url, 2).client];
          const applied = await Promise.all(pools.map((c) => runPgMigrations(c)));
          const tags = migrations.map((m) => m.tag);
          expect(applied.flat().sort()).toEqual([...tags].sort());
          expect(applied.map((list) => list.length).sort()).toEqual([0, tags.length]);
          const rows: Array<{ tag: string }> = await pools[0]!`select tag from __migrations order by tag`;
          expect(rows.map((r) => r.tag)).toEqual([...tags].sort());
          await Promise.all(pools.map((c) => c.close()));
        } finally {
          await again.drop();
        }
      } finally {
        await fresh.drop();
      }
    }, 90_000); // both stores run every migration on a fresh database: 25 s seen on a busy 2-vCPU machine

    test("an earlier release's database: its preset versions read back with format null", async () => {
      const fresh = await createTestDatabase();
      try {
        // what the first release's runner left behind: 0000 applied, one preset version written
        const { client } = openPool(fresh.url, 1);
        await client.unsafe("create table __migrations (tag text primary key, applied_at bigint not null)");
        const first = migrations[0]!;
        for (const statement of first.sql.split("--> statement-breakpoint")) if (statement.trim()) await client.unsafe(statement);
        await client`insert into __migrations (tag, applied_at) values (${first.tag}, 1)`;
        await client`insert into preset_versions (id, preset_id, version, config, system_prompt, creator_id, created_at, updated_at)
          values ('v-old', 'p', 1, '{"model":"m","thinking":{"type":"adaptive"}}', null, null, 1, 1)`;
        await client.close();
        const store = await createPgStore(fresh.url);
        expect(await store.presets.getVersionById("v-old")).toEqual({
          id: "v-old",
          presetId: "p",
          version: 1,
          config: { model: "m", thinking: { type: "adaptive" } },
          systemPrompt: null,
          format: null,
          creatorId: null,
          createdAt: 1,
          updatedAt: 1,
        });
        await store.close();
      } finally {
        await fresh.drop();
      }
    });

    test("without migrating, ready() is false until the migrations are applied", async () => {
      const fresh = await createTestDatabase();
      try {
        const store = await createPgStore(fresh.url, { migrate: false });
        expect(await store.ready()).toBe(false);
        const migrated = await createPgStore(fresh.url);
        expect(await store.ready()).toBe(true);
        await Promise.all([store.close(), migrated.close()]);
      } finally {
        await fresh.drop();
      }
    });
  });

  describe("ready()", () => {
    test("false once the database is dropped", async () => {
      const fresh = await createTestDatabase();
      const store = await createPgStore(fresh.url);
      expect(await store.ready()).toBe(true);
      await fresh.drop();
      expect(await store.ready()).toBe(false);
      await store.close();
    });

    test("false when the server is unreachable", async () => {
      const url = new URL(db.url);
      url.port = "1";
      const store = await createPgStore(url.toString(), { migrate: false });
      expect(await store.ready()).toBe(false);
      await store.close();
    });
  });

  test("the URL's database is used even when PGDATABASE names another", async () => {
    const saved = process.env.PGDATABASE;
    process.env.PGDATABASE = "no_such_database";
    try {
      const store = await createPgStore(db.url);
      expect(await store.ready()).toBe(true);
      await store.close();
    } finally {
      if (saved === undefined) delete process.env.PGDATABASE;
      else process.env.PGDATABASE = saved;
    }
  });
});
