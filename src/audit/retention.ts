import type { Store } from "../store/store";
import { ANCHOR_KEY, chainLink } from "./chain";

/**
 * Deletes the events older than `before`, in one transaction with the anchor: the newest deleted
 * event's number and hash, which the oldest kept event links to, so the rest still verifies.
 * How many were deleted.
 */
export function purgeAuditEvents(store: Pick<Store, "transaction">, before: number): Promise<number> {
  return store.transaction(async (tx) => {
    const purged = await tx.audit.purgeBefore(before);
    if (!purged) return 0;
    await tx.meta.set(ANCHOR_KEY, JSON.stringify(chainLink(purged.newest)));
    return purged.deleted;
  });
}
