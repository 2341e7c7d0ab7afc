import type { Store } from "../store/store";
import { storedRequestOf } from "./stored-request";

/**
 * Holds again the reservations of the video jobs a previous process of the SQLite file admitted
 * and that have not ended: that process's book died with it, while the jobs go on and their spend
 * is still to come, so without their holds the key's limit, the workspace's budgets and the
 * guardrails' budgets would admit new work past them until the jobs settle. Run at start, after
 * `releaseAll` and before the job workers run (none can settle a job before its hold is back).
 * A job whose lease has run out holds nothing, as it would have been released. Returns how many.
 */
export async function restoreVideoReservations(store: Pick<Store, "videoJobs" | "reservations">, now: number): Promise<number> {
  let restored = 0;
  for (const job of await store.videoJobs.holdingReservations()) {
    const held = storedRequestOf(job.request).reservation;
    if (!held || job.reservationId === null || held.expiresAt <= now) continue;
    if (await store.reservations.restore(job.reservationId, { ...held, keyHash: job.keyHash, workspaceId: job.workspaceId })) restored++;
  }
  return restored;
}
