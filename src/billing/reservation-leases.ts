import type { Logger } from "../logger";
import { startPeriodicTask } from "../periodic-task";
import type { ReservationStore } from "../store/store";
import type { ReservationLease } from "./admission";

export type ReservationLeases = { stop(): Promise<void> };

/**
 * Keeps this instance's reservations alive and frees those of instances that died: every third
 * of a lease, the instance moves the expiry of every reservation it holds one lease ahead (one
 * statement) and releases any reservation whose lease ran out. A live request, however long,
 * never loses its reservation; a crashed instance's are free at most one lease later.
 */
export function startReservationLeases(store: ReservationStore, lease: ReservationLease, logger: Logger, clock: () => number): ReservationLeases {
  const renewAndRelease = async () => {
    const now = clock();
    await store.renew(lease.instanceId, now + lease.leaseMs);
    const released = await store.releaseExpired(now);
    if (released > 0) logger.warn("released reservations whose instance stopped renewing them", { count: released });
  };
  return startPeriodicTask(renewAndRelease, Math.max(250, Math.floor(lease.leaseMs / 3)), logger, "could not renew or release reservation leases");
}
