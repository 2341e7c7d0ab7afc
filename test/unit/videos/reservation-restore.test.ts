// restoreVideoReservations at a SQLite start: the holds of the jobs not ended come back as their
// rows recorded them; a job whose lease ran out, one without a recorded hold (stored by an earlier
// version) and an ended one hold nothing; a second run holds nothing twice.
import { expect, test } from "bun:test";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { VideoJobRecord } from "../../../src/store/video-job-store";
import { restoreVideoReservations } from "../../../src/videos/reservation-restore";

const NOW = 1_000_000;
const hold = (expiresAt: number) => ({ keyNanos: 810, workspaceNanos: 0, memberUserId: "u", memberNanos: 810, instanceId: "video", expiresAt });

const job = (id: string, request: Record<string, unknown>, extra: Partial<VideoJobRecord> = {}): VideoJobRecord => ({
  id,
  generationId: `gen-${id}`,
  workspaceId: "w",
  keyHash: "k",
  userId: "u",
  model: "acme/clip",
  status: "pending",
  version: 0,
  request,
  callbackUrl: null,
  reservationId: `res-${id}`,
  endpointId: null,
  upstreamRef: null,
  outputs: [],
  costNanos: null,
  isByok: false,
  errorMessage: null,
  createdAt: NOW - 10,
  updatedAt: NOW - 10,
  deadlineAt: NOW + 60_000,
  completedAt: null,
  ...extra,
});

test("holds again what the rows of the jobs not ended recorded, once; lapsed, unrecorded and ended jobs hold nothing", async () => {
  const store = createSqliteStore(":memory:");
  try {
    await store.videoJobs.create(job("live", { reservation: hold(NOW + 1) }));
    await store.videoJobs.create(job("running", { reservation: hold(NOW + 1) }, { status: "in_progress" }));
    await store.videoJobs.create(job("lapsed", { reservation: hold(NOW) }));
    await store.videoJobs.create(job("older", {}));
    await store.videoJobs.create(job("ended", { reservation: hold(NOW + 1) }, { status: "completed" }));
    expect(await restoreVideoReservations(store, NOW)).toBe(2);
    expect(await store.reservations.held("k")).toBe(1_620);
    expect(await store.guardrails.memberHeld("w", "u")).toBe(1_620);
    expect(await restoreVideoReservations(store, NOW)).toBe(0);
    expect(await store.reservations.held("k")).toBe(1_620);
  } finally {
    await store.close();
  }
});
