import type { JobStore } from "../store/job-store";
import type { JobRegistry } from "./registry";

/**
 * Makes sure every recurring kind has its one job (keyed by the kind, so every worker of every
 * instance may call this at start and one job results). A recurring job that went dead stays
 * dead until retried: it is visible, and its error line was logged.
 */
export async function ensureRecurringJobs(store: JobStore, registry: JobRegistry, now: number): Promise<void> {
  for (const kind of registry.values()) {
    if (kind.everyMs === undefined) continue;
    await store.enqueue({ id: crypto.randomUUID(), kind: kind.kind, key: `recurring:${kind.kind}`, payload: null, runAt: now, now });
  }
}
