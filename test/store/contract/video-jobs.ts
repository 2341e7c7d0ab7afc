/** Contract: video jobs round-trip exactly and move only by compare-and-set on their version. */
import { describe, expect, test } from "bun:test";
import type { Store } from "../../../src/store/store";
import type { VideoJobRecord } from "../../../src/store/video-job-store";

const job = (id: string, extra: Partial<VideoJobRecord> = {}): VideoJobRecord => ({
  id,
  generationId: `gen-${id}`,
  workspaceId: "w1",
  keyHash: "k1",
  userId: null,
  model: "acme/video",
  status: "pending",
  version: 0,
  request: { prompt: "a cat", candidates: ["p/m"], nested: { n: 1.5 } },
  callbackUrl: "https://hooks.example.com/v",
  reservationId: "res-1",
  endpointId: null,
  upstreamRef: null,
  outputs: [],
  costNanos: null,
  isByok: false,
  errorMessage: null,
  createdAt: 1_000,
  updatedAt: 1_000,
  deadlineAt: 3_601_000,
  completedAt: null,
  ...extra,
});

export function videoJobsContract(store: () => Store): void {
  describe("video jobs", () => {
    test("create then get reads the job back exactly; an unknown id is undefined", async () => {
      const s = store();
      await s.videoJobs.create(job("v1"));
      expect(await s.videoJobs.get("v1")).toEqual(job("v1"));
      expect(await s.videoJobs.get("nope")).toBeUndefined();
    });

    test("update applies at the stored version only, bumping it; a stale version changes nothing", async () => {
      const s = store();
      await s.videoJobs.create(job("v2"));
      const moved = await s.videoJobs.update("v2", 0, { status: "in_progress", endpointId: "p/m", upstreamRef: { id: "up_1" } }, 2_000);
      expect(moved).toEqual(job("v2", { status: "in_progress", version: 1, endpointId: "p/m", upstreamRef: { id: "up_1" }, updatedAt: 2_000 }));
      expect(await s.videoJobs.update("v2", 0, { status: "failed" }, 3_000)).toBeUndefined();
      const outputs = [{ index: 0, path: "/data/videos/v2/0.mp4", contentType: "video/mp4", bytes: 12_345 }];
      const done = await s.videoJobs.update("v2", 1, { status: "completed", outputs, costNanos: 4_000_000_000, isByok: true, completedAt: 4_000 }, 4_000);
      expect(done).toEqual(
        job("v2", {
          status: "completed",
          version: 2,
          endpointId: "p/m",
          upstreamRef: { id: "up_1" },
          outputs,
          costNanos: 4_000_000_000,
          isByok: true,
          completedAt: 4_000,
          updatedAt: 4_000,
        }),
      );
      expect(await s.videoJobs.get("v2")).toEqual(done);
    });

    test("holdingReservations lists the jobs not ended that hold a reservation, oldest first", async () => {
      const s = store();
      await s.videoJobs.create(job("h2", { createdAt: 2_000, reservationId: "res-h2" }));
      await s.videoJobs.create(job("h1", { createdAt: 1_500, reservationId: "res-h1" }));
      await s.videoJobs.create(job("free", { reservationId: null }));
      await s.videoJobs.create(job("done", { reservationId: "res-done" }));
      await s.videoJobs.update("h2", 0, { status: "in_progress" }, 2_500);
      await s.videoJobs.update("done", 0, { status: "completed", completedAt: 3_000 }, 3_000);
      expect((await s.videoJobs.holdingReservations()).map((j) => [j.id, j.status, j.reservationId])).toEqual([
        ["h1", "pending", "res-h1"],
        ["h2", "in_progress", "res-h2"],
      ]);
    });

    test("an update inside a transaction that fails is rolled back", async () => {
      const s = store();
      await s.videoJobs.create(job("v3"));
      await expect(
        s.transaction(async (tx) => {
          await tx.videoJobs.update("v3", 0, { status: "failed", errorMessage: "boom" }, 2_000);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await s.videoJobs.get("v3")).toEqual(job("v3"));
    });
  });
}
