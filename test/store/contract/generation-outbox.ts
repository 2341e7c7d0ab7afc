/** Contract: a generation record's outbox (jobs, kept content) commits with it, once; kept content is read and pruned. */
import { describe, expect, test } from "bun:test";
import type { GenerationContentRecord, SettledGeneration, Store } from "../../../src/store/store";
import type { NewJob } from "../../../src/store/job-store";
import { generation, NOW, settled } from "./fixtures";

const job = (generationId: string, extra: Partial<NewJob> = {}): NewJob => ({
  id: `job-${generationId}`,
  kind: "observability.dispatch",
  key: `observability.dispatch:${generationId}`,
  payload: { sealed: `sealed-${generationId}` },
  runAt: NOW,
  now: NOW,
  ...extra,
});

const content = (generationId: string, createdAt = NOW): GenerationContentRecord => ({ generationId, workspaceId: "ws", keyHash: "k", sealed: `content-${generationId}`, createdAt });

const withOutbox = (id: string, extra: Partial<SettledGeneration> = {}): SettledGeneration => ({ ...settled(generation(id, "k", 100), { nanos: null }), jobs: [job(id)], content: content(id), ...extra });

export function generationOutboxContract(store: () => Store): void {
  describe("generation outbox", () => {
    test("the jobs and the content of a batch commit with its records", async () => {
      const s = store();
      await s.generations.commit([withOutbox("g1"), withOutbox("g2", { content: null }), settled(generation("g3", "k", 1), { nanos: null })]);
      const jobs = await s.jobs.list({ kind: "observability.dispatch" }, 0, 10);
      expect(jobs.map((j) => [j.key, j.payload, j.state, j.runAt, j.attempts]).sort()).toEqual([
        ["observability.dispatch:g1", { sealed: "sealed-g1" }, "pending", NOW, 0],
        ["observability.dispatch:g2", { sealed: "sealed-g2" }, "pending", NOW, 0],
      ]);
      expect(await s.generationContents.get("g1")).toEqual(content("g1"));
      expect(await s.generationContents.get("g2")).toBeUndefined();
      expect(await s.generationContents.get("g3")).toBeUndefined();
    });

    test("a record committed again adds neither its jobs nor its content a second time", async () => {
      const s = store();
      await s.generations.commit([withOutbox("g1")]);
      // a retry of the same record, with an outbox built afresh (new job id, new sealed text)
      await s.generations.commit([withOutbox("g1", { jobs: [job("g1", { id: "job-retry", key: "other-key" })], content: { ...content("g1"), sealed: "resealed" } })]);
      const jobs = await s.jobs.list({}, 0, 10);
      expect(jobs.map((j) => j.id)).toEqual(["job-g1"]);
      expect((await s.generationContents.get("g1"))?.sealed).toBe("content-g1");
    });

    test("a job key stored already is skipped; the record still commits", async () => {
      const s = store();
      await s.jobs.enqueue(job("g1", { id: "earlier" }));
      await s.generations.commit([withOutbox("g1")]);
      expect((await s.jobs.list({}, 0, 10)).map((j) => j.id)).toEqual(["earlier"]);
      expect(await s.generations.get("g1")).toBeDefined();
    });

    test("purgeBefore deletes what was kept before the time, and says how much", async () => {
      const s = store();
      await s.generations.commit([withOutbox("old", { content: content("old", NOW - 10) }), withOutbox("new", { content: content("new", NOW) })]);
      expect(await s.generationContents.purgeBefore(NOW)).toBe(1);
      expect(await s.generationContents.get("old")).toBeUndefined();
      expect(await s.generationContents.get("new")).toEqual(content("new"));
      expect(await s.generationContents.purgeBefore(NOW)).toBe(0);
    });
  });
}
