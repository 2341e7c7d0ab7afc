import type { Logger } from "../../logger";
import type { RefusalStore } from "../../store/store";
import type { JobKind } from "../registry";

/** How long the refusal log keeps its rows; the hourly counters stay (the overview's counts of 402s and 429s read them). */
export const REFUSED_REQUESTS_RETENTION_MS = 30 * 86_400_000;

/** Deletes refused requests older than REFUSED_REQUESTS_RETENTION_MS, once an hour, for the whole deployment. */
export function refusedRequestsPurgeKind(store: RefusalStore, logger: Logger, clock: () => number): JobKind {
  return {
    kind: "refused_requests.purge",
    everyMs: 3_600_000,
    maxAttempts: 30,
    async run() {
      const purged = await store.purge(clock() - REFUSED_REQUESTS_RETENTION_MS);
      if (purged > 0) logger.debug("purged old refused requests", { refused_requests: purged });
    },
  };
}
