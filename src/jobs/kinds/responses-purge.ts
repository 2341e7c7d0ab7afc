import type { Logger } from "../../logger";
import type { ResponseStateStore } from "../../store/store";
import type { JobKind } from "../registry";

/**
 * Deletes stored Responses items once their retention has passed, once a minute. Reads never
 * serve an expired item anyway; this keeps the tables from growing. One job for the whole
 * deployment: several instances no longer all purge the same rows.
 */
export function responsesPurgeKind(store: ResponseStateStore, logger: Logger, clock: () => number): JobKind {
  return {
    kind: "responses.purge",
    everyMs: 60_000,
    maxAttempts: 30,
    async run() {
      const purged = await store.purgeExpired(clock());
      if (purged > 0) logger.debug("purged expired Responses items", { responses: purged });
    },
  };
}
