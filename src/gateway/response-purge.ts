import type { Logger } from "../logger";
import { startPeriodicTask, type PeriodicTask } from "../periodic-task";
import type { ResponseStateStore } from "../store/store";

const PURGE_EVERY_MS = 60_000;

/**
 * Deletes stored Responses items once their retention has passed. Reads never serve an
 * expired item anyway; this keeps the tables from growing. Every instance purges (a delete of
 * what is already gone costs nothing).
 */
export function startResponsePurge(store: ResponseStateStore, logger: Logger, clock: () => number, everyMs = PURGE_EVERY_MS): PeriodicTask {
  const purge = async () => {
    const purged = await store.purgeExpired(clock());
    if (purged > 0) logger.debug("purged expired Responses items", { responses: purged });
  };
  return startPeriodicTask(purge, everyMs, logger, "could not purge expired Responses items");
}
