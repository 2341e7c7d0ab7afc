import type { Logger } from "../../logger";
import type { ResponseCacheStore } from "../../store/store";
import type { JobKind } from "../registry";

/**
 * Deletes response cache entries once they expired, once a minute. A look-up never serves an
 * expired entry anyway; this keeps the table to what can still be served. One job for the whole
 * deployment.
 */
export function responseCachePurgeKind(store: ResponseCacheStore, logger: Logger, clock: () => number): JobKind {
  return {
    kind: "response_cache.purge",
    everyMs: 60_000,
    maxAttempts: 30,
    async run() {
      const purged = await store.purgeExpired(clock());
      if (purged > 0) logger.debug("purged expired response cache entries", { entries: purged });
    },
  };
}
