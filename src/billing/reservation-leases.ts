import type { Logger } from "../logger";
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
  let running: Promise<void> = Promise.resolve();
  let warned = false;
  const tick = async () => {
    try {
      const now = clock();
      await store.renew(lease.instanceId, now + lease.leaseMs);
      const released = await store.releaseExpired(now);
      if (released > 0) logger.warn("released reservations whose instance stopped renewing them", { count: released });
      warned = false;
    } catch (err) {
      // the database is away: the next tick tries again; say it once, not every tick
      if (!warned) logger.warn("could not renew or release reservation leases", { error: String(err) });
      warned = true;
    }
  };
  running = tick();
  const timer = setInterval(() => {
    running = running.then(tick);
  }, Math.max(250, Math.floor(lease.leaseMs / 3)));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
