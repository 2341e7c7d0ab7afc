import { purgeAuditEvents } from "../../audit/retention";
import type { Logger } from "../../logger";
import type { Store } from "../../store/store";
import type { JobKind } from "../registry";

/**
 * Deletes audit events older than `audit.retention_days`, once an hour. The purge leaves the
 * chain's anchor behind (src/audit/retention.ts), so `gateway audit verify` still checks
 * everything kept, from the oldest kept event on.
 */
export function auditPurgeKind(store: Pick<Store, "transaction">, retentionMs: number, logger: Logger, clock: () => number): JobKind {
  return {
    kind: "audit.purge",
    everyMs: 3_600_000,
    maxAttempts: 30,
    async run() {
      const purged = await purgeAuditEvents(store, clock() - retentionMs);
      if (purged > 0) logger.info("purged audit events past their retention", { events: purged });
    },
  };
}
