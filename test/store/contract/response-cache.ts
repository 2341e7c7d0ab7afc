/** Contract: a response cache entry commits with the generation record that made it, once; it is read while unexpired, per workspace, and cleared, purged and counted. */
import { describe, expect, test } from "bun:test";
import type { ResponseCacheEntry, SettledGeneration, Store } from "../../../src/store/store";
import { generation, NOW, settled } from "./fixtures";

const entry = (generationId: string, extra: Partial<ResponseCacheEntry> = {}): ResponseCacheEntry => ({
  key: "key-1",
  workspaceId: "ws",
  generationId,
  answer: `{"answer":"${generationId}"}`,
  bytes: 16 + generationId.length,
  createdAt: NOW,
  expiresAt: NOW + 300_000,
  ...extra,
});

const withEntry = (id: string, cacheEntry: ResponseCacheEntry, extra: Partial<SettledGeneration> = {}): SettledGeneration => ({
  ...settled(generation(id, "k", 0, { cacheStatus: "miss" }), { nanos: null }),
  cacheEntry,
  ...extra,
});

export function responseCacheContract(store: () => Store): void {
  describe("response cache", () => {
    test("an entry commits with its record and is read back by workspace and key until it expires", async () => {
      const s = store();
      await s.generations.commit([withEntry("g1", entry("g1"))]);
      const found = { generationId: "g1", answer: '{"answer":"g1"}', createdAt: NOW };
      expect(await s.responseCache.get("ws", "key-1", NOW)).toEqual(found);
      expect(await s.responseCache.get("ws", "key-1", NOW + 299_999)).toEqual(found);
      expect(await s.responseCache.get("ws", "key-1", NOW + 300_000)).toBeUndefined();
      expect(await s.responseCache.get("other-ws", "key-1", NOW)).toBeUndefined();
      expect(await s.responseCache.get("ws", "key-2", NOW)).toBeUndefined();
      expect((await s.generations.get("g1"))?.cacheStatus).toBe("miss");
    });

    test("a newer answer replaces the key's entry; a record committed again stores nothing", async () => {
      const s = store();
      await s.generations.commit([withEntry("g1", entry("g1"))]);
      await s.generations.commit([withEntry("g2", entry("g2", { createdAt: NOW + 10 }))]);
      expect(await s.responseCache.get("ws", "key-1", NOW + 20)).toEqual({ generationId: "g2", answer: '{"answer":"g2"}', createdAt: NOW + 10 });
      // a retried commit of g1 (already stored) must not bring its older answer back
      await s.generations.commit([withEntry("g1", entry("g1", { createdAt: NOW + 30 }))]);
      expect((await s.responseCache.get("ws", "key-1", NOW + 40))?.generationId).toBe("g2");
    });

    test("two answers for one key in one batch: the later one is kept", async () => {
      const s = store();
      await s.generations.commit([withEntry("g1", entry("g1")), withEntry("g2", entry("g2", { createdAt: NOW + 5 }))]);
      expect((await s.responseCache.get("ws", "key-1", NOW + 10))?.generationId).toBe("g2");
      expect((await s.generations.get("g1"))?.id).toBe("g1");
    });

    test("stats count unexpired entries and their bytes; purge removes the expired; clear empties a workspace or all", async () => {
      const s = store();
      await s.generations.commit([
        withEntry("a1", entry("a1", { key: "a1" })),
        withEntry("a2", entry("a2", { key: "a2", expiresAt: NOW + 1000 })),
        withEntry("b1", entry("b1", { key: "b1", workspaceId: "ws-b" })),
      ]);
      expect(await s.responseCache.stats(NOW)).toEqual({ entries: 3, bytes: 54 });
      expect(await s.responseCache.stats(NOW + 1000)).toEqual({ entries: 2, bytes: 36 });
      // one workspace's: the expired one not counted, another workspace's neither
      expect(await s.responseCache.stats(NOW, "ws")).toEqual({ entries: 2, bytes: 36 });
      expect(await s.responseCache.stats(NOW + 1000, "ws")).toEqual({ entries: 1, bytes: 18 });
      expect(await s.responseCache.stats(NOW, "ws-b")).toEqual({ entries: 1, bytes: 18 });
      expect(await s.responseCache.stats(NOW, "ws-none")).toEqual({ entries: 0, bytes: 0 });
      expect(await s.responseCache.purgeExpired(NOW + 1000)).toBe(1);
      expect(await s.responseCache.purgeExpired(NOW + 1000)).toBe(0);
      expect(await s.responseCache.clear("ws-b")).toBe(1);
      expect(await s.responseCache.get("ws-b", "b1", NOW)).toBeUndefined();
      expect(await s.responseCache.clear(null)).toBe(1);
      expect(await s.responseCache.stats(NOW)).toEqual({ entries: 0, bytes: 0 });
    });
  });
}
