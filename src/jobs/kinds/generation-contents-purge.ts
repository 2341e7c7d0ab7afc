import type { Logger } from "../../logger";
import type { GenerationContentStore } from "../../store/store";
import type { JobKind } from "../registry";

/** Deletes prompts and completions I/O logging kept longer than `io_logging.retention_days`, once an hour. */
export function generationContentsPurgeKind(store: GenerationContentStore, retentionMs: number, logger: Logger, clock: () => number): JobKind {
  return {
    kind: "generation_contents.purge",
    everyMs: 3600_000,
    maxAttempts: 30,
    async run() {
      const purged = await store.purgeBefore(clock() - retentionMs);
      if (purged > 0) logger.debug("purged kept generation contents", { contents: purged });
    },
  };
}
