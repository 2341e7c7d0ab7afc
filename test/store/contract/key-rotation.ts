/** Contract: a key rotation moves the key's hash everywhere it is written, in one step, and keeps the old secret for its grace. */
import { describe, expect, test } from "bun:test";
import { getTableColumns } from "drizzle-orm";
import { KEY_HASH_COLUMNS, KEY_HASH_LIST_COLUMNS } from "../../../src/store/queries/key-rotation";
import { refusalCounters } from "../../../src/store/refusal-counts";
import * as schema from "../../../src/store/sqlite/schema";
import type { Store } from "../../../src/store/store";
import { destination } from "./destinations";
import { apiKey, credential, generation, NOW, settled, TODAY, usageRow, workspace } from "./fixtures";

const OLD = "a".repeat(64);
const NEW = "b".repeat(64);

export function keyRotationContract(store: () => Store): void {
  describe("key rotation", () => {
    test("every table with a key_hash column, and every list of key hashes, is in the rotation's list", () => {
      const named = new Set([...KEY_HASH_COLUMNS, ...KEY_HASH_LIST_COLUMNS].map(([table, column]) => `${table}.${column}`));
      const found: string[] = [];
      for (const table of Object.values(schema)) {
        if (typeof table !== "object" || table === null || !("getSQL" in table)) continue;
        const name = (table as unknown as { [k: symbol]: string })[Symbol.for("drizzle:Name")];
        for (const column of Object.values(getTableColumns(table as never)) as Array<{ name: string }>)
          if (column.name === "key_hash" || column.name.endsWith("key_hashes")) found.push(`${name}.${column.name}`);
      }
      expect(found.length).toBeGreaterThan(5);
      expect(found.filter((c) => !named.has(c))).toEqual([]);
    });

    test("the key, its usage, generations, counters and the lists naming it take the new hash; the old secret authenticates until its grace ends", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", NOW));
      await s.keys.create(apiKey(OLD, "w1", NOW, { name: "rotated", limitNanos: 5_000, alertThresholds: [0.5, 1] }));
      await s.keys.create(apiKey("c".repeat(64), "w1", NOW));
      await s.generations.commit([settled(generation("g1", OLD, 700, { workspaceId: "w1", endpointId: "p/m", providerName: "p" }))]);
      await s.destinations.create(destination("d1", "w1", NOW, { apiKeyHashes: [OLD, "c".repeat(64)] }));
      await s.byok.create(credential("cred", "w1", "openai", NOW, { allowedApiKeyHashes: [OLD] }));
      const refused = [
        {
          id: "r1",
          createdAt: NOW,
          status: 402,
          errorCode: "limit_exceeded",
          reason: "no",
          method: "POST",
          route: "/api/v1/chat/completions",
          model: "m",
          keyHash: OLD,
          workspaceId: "w1",
          userId: null,
        },
      ];
      await s.refusals.record(refused, refusalCounters(refused));

      const rotated = await s.keys.rotate({ hash: OLD, newHash: NEW, label: "sk-new…", previousValidUntil: NOW + 60_000, now: NOW + 1 });
      expect(rotated).toEqual(apiKey(NEW, "w1", NOW, { name: "rotated", label: "sk-new…", limitNanos: 5_000, alertThresholds: [0.5, 1], updatedAt: NOW + 1 }));
      expect(await s.keys.get(OLD)).toBeUndefined();
      expect(await s.usage.get(OLD)).toBeUndefined();
      expect(await s.usage.get(NEW)).toEqual(usageRow(NEW, TODAY, { total: 700, day: 700, week: 700, month: 700 }));
      expect((await s.generations.get("g1"))?.keyHash).toBe(NEW);
      expect((await s.generations.list({ keyHash: NEW }, null, 10)).map((g) => g.id)).toEqual(["g1"]);
      expect((await s.activity.rollup({ from: TODAY.day, to: TODAY.day, by: "key" })).map((r) => r.group)).toEqual([NEW]);
      const hourly = await s.analytics.query({
        fromHour: 0,
        toHour: NOW * 2,
        bucket: null,
        groupBy: ["key_hash"],
        filters: [],
        sums: ["requests"],
        maxGroups: 10,
      });
      expect(hourly).toEqual([{ bucket: null, groups: { key_hash: NEW }, sums: { requests: 1 } }]);
      expect((await s.refusals.list({ keyHash: NEW }, null, 10)).map((r) => r.id)).toEqual(["r1"]);
      expect((await s.destinations.get("d1"))?.apiKeyHashes).toEqual([NEW, "c".repeat(64)]);
      expect((await s.byok.get("cred"))?.allowedApiKeyHashes).toEqual([NEW]);
      expect(await s.keys.previous(OLD)).toEqual({ keyHash: NEW, validUntil: NOW + 60_000 });
      expect(await s.keys.previous(NEW)).toBeUndefined();

      // a second rotation carries the first grace along to the newest hash
      const third = "d".repeat(64);
      await s.keys.rotate({ hash: NEW, newHash: third, label: "sk-3…", previousValidUntil: null, now: NOW + 2 });
      expect(await s.keys.previous(OLD)).toEqual({ keyHash: third, validUntil: NOW + 60_000 });
      expect(await s.keys.previous(NEW)).toBeUndefined();
    });

    test("a key that is not live does not rotate, and nothing moves", async () => {
      const s = store();
      await s.keys.create(apiKey(OLD, "w1", NOW));
      await s.keys.delete(OLD, NOW);
      await s.generations.commit([settled(generation("g1", OLD, 700))]);
      expect(await s.keys.rotate({ hash: OLD, newHash: NEW, label: "x", previousValidUntil: NOW + 1000, now: NOW })).toBeUndefined();
      expect((await s.generations.get("g1"))?.keyHash).toBe(OLD);
      expect(await s.keys.previous(OLD)).toBeUndefined();
    });
  });
}
