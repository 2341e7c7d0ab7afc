/** Contract: a generation record's outbox (the generation to forward, kept content) commits with it, once; both are read and removed. */
import { describe, expect, test } from "bun:test";
import type { GenerationContentRecord, ObservationRecord, SettledGeneration, Store } from "../../../src/store/store";
import { generation, NOW, settled } from "./fixtures";

const observation = (generationId: string, sealed = `observed-${generationId}`): ObservationRecord => ({ generationId, workspaceId: "ws", sealed, createdAt: NOW });
const content = (generationId: string, createdAt = NOW): GenerationContentRecord => ({ generationId, workspaceId: "ws", keyHash: "k", sealed: `content-${generationId}`, createdAt });

const withOutbox = (id: string, extra: Partial<SettledGeneration> = {}): SettledGeneration => ({ ...settled(generation(id, "k", 100), { nanos: null }), observation: observation(id), content: content(id), ...extra });

export function generationOutboxContract(store: () => Store): void {
  describe("generation outbox", () => {
    test("the observations and the contents of a batch commit with its records; the outbox is read in order", async () => {
      const s = store();
      await s.generations.commit([withOutbox("g1"), withOutbox("g2", { content: null }), settled(generation("g3", "k", 1), { nanos: null }), withOutbox("g4", { observation: null })]);
      const queued = await s.observationOutbox.take(10);
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
      expect((await s.observationOutbox.take(10)).map((o) => o.sealed)).toEqual(["observed-g1"]);
      expect((await s.generationContents.get("g1"))?.sealed).toBe("content-g1");
    });

    test("take gives the oldest first, at most the limit; remove deletes by seq, inside a transaction too", async () => {
      const s = store();
      for (const id of ["a", "b", "c", "d"]) await s.generations.commit([withOutbox(id, { content: null })]);
      const first = await s.observationOutbox.take(2);
      expect(first.map((o) => o.generationId)).toEqual(["a", "b"]);
      await s.observationOutbox.remove(first.map((o) => o.seq));
      const [c] = await s.observationOutbox.take(1);
      await expect(
        s.transaction(async (tx) => {
          await tx.observationOutbox.remove([c!.seq]);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect((await s.observationOutbox.take(10)).map((o) => o.generationId)).toEqual(["c", "d"]);
      await s.transaction((tx) => tx.observationOutbox.remove([c!.seq]));
      await s.observationOutbox.remove([]);
      expect((await s.observationOutbox.take(10)).map((o) => o.generationId)).toEqual(["d"]);
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
