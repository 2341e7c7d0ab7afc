import type { Logger } from "../../logger";
import type { JobStore } from "../../store/job-store";
import type { JobKind } from "../registry";

/** Done jobs are kept this long (to look at), then deleted; dead jobs stay until retried. */
export const DONE_JOB_RETENTION_MS = 7 * 24 * 3600_000;

/** Deletes done jobs older than a week, once an hour. */
export function jobsPurgeKind(store: JobStore, logger: Logger, clock: () => number): JobKind {
  return {
    kind: "jobs.purge",
    everyMs: 3600_000,
    maxAttempts: 30,
    async run() {
      const purged = await store.purgeDone(clock() - DONE_JOB_RETENTION_MS);
      if (purged > 0) logger.debug("purged done jobs", { jobs: purged });
    },
  };
}
