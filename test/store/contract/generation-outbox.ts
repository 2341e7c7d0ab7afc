/** Contract: a generation record's outbox (the generation to forward, kept content) commits with it, once; both are read and removed. */
import { describe, expect, test } from "bun:test";
import type { GenerationContentRecord, ObservationRecord, SettledGeneration, Store } from "../../../src/store/store";
import { generation, NOW, settled } from "./fixtures";

const observation = (generationId: string, sealed = `observed-${generationId}`): ObservationRecord => ({
  generationId,
  workspaceId: "ws",
  sealed,
  createdAt: NOW,
});
const content = (generationId: string, createdAt = NOW): GenerationContentRecord => ({
  generationId,
  workspaceId: "ws",
  keyHash: "k",
  sealed: `content-${generationId}`,
  createdAt,
});

const withOutbox = (id: string, extra: Partial<SettledGeneration> = {}): SettledGeneration => ({
  ...settled(generation(id, "k", 100), { nanos: null }),
  observation: observation(id),
  content: content(id),
  ...extra,
});

/** the generation ids a claim by `owner` at `now` takes (its claim ending at `now`: free again just after) */
const claimedIds = async (s: Store, now: number, owner = "reader", limit = 10) =>
  (await s.observationOutbox.claim(owner, now, now, limit)).map((o) => o.generationId);

const commitEach = async (s: Store, ids: string[]) => {
  for (const id of ids) await s.generations.commit([withOutbox(id, { content: null })]);
};

export function generationOutboxContract(store: () => Store): void {
  describe("generation outbox", () => {
    test("a row sealed as bytes comes back as those bytes (SQLite) or their base64 text (PostgreSQL)", async () => {
      const s = store();
      const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256);
      await s.generations.commit([withOutbox("bytes", { observation: { ...observation("bytes"), sealed: bytes }, content: null })]);
      const [row] = await s.observationOutbox.claim("o", NOW, NOW + 1000, 10);
      const back = typeof row!.sealed === "string" ? Buffer.from(row!.sealed, "base64") : Buffer.from(row!.sealed);
      expect(back.equals(Buffer.from(bytes))).toBe(true);
    });

    test("the observations and the contents of a batch commit with its records; the outbox is read in order", async () => {
      const s = store();
      await s.generations.commit([
        withOutbox("g1"),
        withOutbox("g2", { content: null }),
        settled(generation("g3", "k", 1), { nanos: null }),
        withOutbox("g4", { observation: null }),
      ]);
      const queued = await s.observationOutbox.claim("drain", NOW, NOW + 1000, 10);
      expect(queued.map(({ seq: _seq, ...rest }) => rest)).toEqual([observation("g1"), observation("g2")]);
      expect(queued[0]!.seq).toBeLessThan(queued[1]!.seq);
      expect(await s.generationContents.get("g1")).toEqual(content("g1"));
      expect(await s.generationContents.get("g2")).toBeUndefined();
      expect(await s.generationContents.get("g3")).toBeUndefined();
      expect(await s.generationContents.get("g4")).toEqual(content("g4"));
    });

    test("a record committed again adds neither its observation nor its content a second time", async () => {
      const s = store();
      await s.generations.commit([withOutbox("g1")]);
      await s.generations.commit([withOutbox("g1", { observation: observation("g1", "resealed"), content: { ...content("g1"), sealed: "resealed" } })]);
      expect((await s.observationOutbox.claim("drain", NOW, NOW + 1000, 10)).map((o) => o.sealed)).toEqual(["observed-g1"]);
      expect((await s.generationContents.get("g1"))?.sealed).toBe("content-g1");
    });

    test("claim gives the oldest first, at most the limit; remove deletes by seq, inside a transaction too", async () => {
      const s = store();
      await commitEach(s, ["a", "b", "c", "d"]);
      const first = await s.observationOutbox.claim("drain", 1000, 2000, 2);
      expect(first.map((o) => o.generationId)).toEqual(["a", "b"]);
      await s.observationOutbox.remove(first.map((o) => o.seq));
      const [c] = await s.observationOutbox.claim("drain", 1000, 2000, 1);
      expect(c?.generationId).toBe("c");
      await expect(
        s.transaction(async (tx) => {
          await tx.observationOutbox.remove([c!.seq]);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await claimedIds(s, 2001)).toEqual(["c", "d"]);
      await s.transaction((tx) => tx.observationOutbox.remove([c!.seq]));
      await s.observationOutbox.remove([]);
      expect(await claimedIds(s, 2002)).toEqual(["d"]);
    });

    test("claimed rows are not claimed again before their claim ends: the next claim takes the next rows; once it ended, anyone takes them", async () => {
      const s = store();
      await commitEach(s, ["a", "b", "c"]);
      expect((await s.observationOutbox.claim("d1", 1000, 2000, 2)).map((o) => o.generationId)).toEqual(["a", "b"]);
      expect((await s.observationOutbox.claim("d2", 1500, 2500, 10)).map((o) => o.generationId)).toEqual(["c"]);
      // a claim ending at 2000 still holds at 2000
      expect(await s.observationOutbox.claim("d3", 2000, 3000, 10)).toEqual([]);
      expect((await s.observationOutbox.claim("d3", 2001, 3001, 10)).map((o) => o.generationId)).toEqual(["a", "b"]);
      expect((await s.observationOutbox.claim("d3", 2501, 3501, 10)).map((o) => o.generationId)).toEqual(["c"]);
    });

    test("claims racing each other take every row once", async () => {
      const s = store();
      await commitEach(s, ["a", "b", "c", "d", "e", "f"]);
      const claims = await Promise.all(["d1", "d2", "d3", "d4"].map((owner) => s.observationOutbox.claim(owner, 1000, 2000, 2)));
      expect(
        claims
          .flat()
          .map((o) => o.generationId)
          .sort(),
      ).toEqual(["a", "b", "c", "d", "e", "f"]);
      expect(await s.observationOutbox.claim("d5", 1000, 2000, 10)).toEqual([]);
    });

    test("renew moves the claims the owner still holds and returns their seqs; another owner's claim is not renewed", async () => {
      const s = store();
      await commitEach(s, ["a", "b"]);
      const [a] = await s.observationOutbox.claim("d1", 1000, 2000, 1);
      const [b] = await s.observationOutbox.claim("d2", 1000, 2000, 1);
      expect(await s.observationOutbox.renew("d1", [a!.seq, b!.seq, b!.seq + 100], 5000)).toEqual([a!.seq]);
      expect(await s.observationOutbox.renew("d1", [], 5000)).toEqual([]);
      // past the old expiry: b (not renewed) is free, a is held until 5000
      expect(await claimedIds(s, 2001, "d3")).toEqual(["b"]);
      // d3 took b: d2 no longer holds it
      expect(await s.observationOutbox.renew("d2", [b!.seq], 6000)).toEqual([]);
      expect(await claimedIds(s, 5000)).toEqual(["b"]);
      expect(await claimedIds(s, 5001)).toEqual(["a", "b"]);
    });

    test("claim and renew inside a transaction roll back with it, and hold once committed", async () => {
      const s = store();
      await commitEach(s, ["a", "b"]);
      await expect(
        s.transaction(async (tx) => {
          const claimed = await tx.observationOutbox.claim("d1", 1000, 2000, 10);
          expect(
            await tx.observationOutbox.renew(
              "d1",
              claimed.map((o) => o.seq),
              3000,
            ),
          ).toEqual(claimed.map((o) => o.seq));
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await claimedIds(s, 1000)).toEqual(["a", "b"]);
      const claimed = await s.transaction(async (tx) => {
        const rows = await tx.observationOutbox.claim("d1", 1001, 2000, 1);
        await tx.observationOutbox.renew("d1", [rows[0]!.seq], 3000);
        return rows;
      });
      expect(claimed.map((o) => o.generationId)).toEqual(["a"]);
      expect(await claimedIds(s, 2001)).toEqual(["b"]);
      expect(await claimedIds(s, 3001)).toEqual(["a", "b"]);
    });

    test("claim returns the rows in seq order, with exactly the fields of a queued observation", async () => {
      const s = store();
      const ids = Array.from({ length: 12 }, (_, i) => `g${String(i).padStart(2, "0")}`);
      await s.generations.commit(ids.slice(0, 6).map((id) => withOutbox(id, { content: null })));
      await commitEach(s, ids.slice(6));
      const claimed = await s.observationOutbox.claim("d1", 1000, 2000, 20);
      expect(claimed.map(({ seq: _seq, ...rest }) => rest)).toStrictEqual(ids.map((id) => observation(id)));
      expect(claimed.map((o) => o.seq)).toEqual(claimed.map((o) => o.seq).sort((x, y) => x - y));
      expect(new Set(claimed.map((o) => o.seq)).size).toBe(12);
      for (const row of claimed) {
        expect(Object.keys(row).sort()).toEqual(["createdAt", "generationId", "sealed", "seq", "workspaceId"]);
        expect(typeof row.seq).toBe("number");
      }
    });

    test("purgeBefore deletes contents kept before the time, and says how many", async () => {
      const s = store();
      await s.generations.commit([withOutbox("old", { content: content("old", NOW - 10) }), withOutbox("new", { content: content("new", NOW) })]);
      expect(await s.generationContents.purgeBefore(NOW)).toBe(1);
      expect(await s.generationContents.get("old")).toBeUndefined();
      expect(await s.generationContents.get("new")).toEqual(content("new"));
      expect(await s.generationContents.purgeBefore(NOW)).toBe(0);
    });
  });
}
