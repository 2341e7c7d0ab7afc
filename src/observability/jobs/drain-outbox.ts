import type { SecretBox } from "../../crypto/secret-box";
import type { Logger } from "../../logger";
import type { NewJob } from "../../store/job-store";
import type { HandOffEnqueue } from "../../jobs/runner";
import type { Store, WorkspaceRecord } from "../../store/store";
import { broadcastEnabled } from "../capture/io-logging";
import type { Destination, ObservedGeneration } from "../contract";
import { selectDeliveries } from "../pipeline/select-deliveries";
import { deliverJob } from "./deliver-kind";
import { observedGeneration } from "../capture/observed-generation";
import { openOutboxDocument, sealObserved } from "./observed-payload";
import type { ObservabilityParts } from "./parts";

/** Rows taken from the outbox at once: one transaction enqueues their deliveries and removes them. */
export const DRAIN_BATCH = 100;

export type DrainDeps = {
  store: Pick<Store, "observationOutbox" | "workspaces" | "generations" | "transaction">;
  secrets: Pick<SecretBox, "openOnce" | "sealSync">;
  clock: () => number;
  logger: Logger;
  parts: ObservabilityParts | null;
  /** the job worker's runner (JobRunner.handOff): the delivery jobs it has room for start without a lease's write */
  handOff?: (enqueue: HandOffEnqueue) => Promise<void>;
};

/**
 * Runs the pipeline for the generations waiting in the outbox, off the requests' path: for each,
 * its workspace's enabled destinations → key list → filter rules → sampling → privacy, then one
 * delivery job per destination left; the jobs of a batch and the removal of its rows commit
 * together; the worker's runner starts those it has room for at once, without leasing them
 * (JobRunner.handOff). A workspace that turned broadcast off since forwards nothing; with no destinations
 * wired (src/observability/wiring.ts) nothing is forwarded. Idempotent (the delivery jobs are
 * keyed), so a drain that dies half way, or two that overlap, deliver nothing twice.
 * Returns how many generations it took and how many delivery jobs it made of them.
 */
export async function drainObservations(deps: DrainDeps): Promise<{ taken: number; deliveries: number }> {
  let taken = 0;
  let deliveries = 0;
  const workspaces = new Map<string, WorkspaceRecord | undefined>();
  const destinations = new Map<string, readonly Destination[]>();
  for (;;) {
    const rows = await deps.store.observationOutbox.take(DRAIN_BATCH);
    if (rows.length === 0) return { taken, deliveries };
    const jobs: NewJob[] = [];
    const now = deps.clock();
    for (const row of rows) {
      if (!deps.parts) continue;
      if (!workspaces.has(row.workspaceId)) workspaces.set(row.workspaceId, await deps.store.workspaces.find(row.workspaceId));
      const workspace = workspaces.get(row.workspaceId);
      if (!workspace || !broadcastEnabled(workspace.settings)) continue;
      if (!destinations.has(row.workspaceId)) destinations.set(row.workspaceId, await deps.parts.destinations.enabledForWorkspace(row.workspaceId));
      const full = await observedOrLogged(deps, row);
      if (!full) continue;
      // one sealing per view of the generation (whole, or without content: privacy mode), shared by the destinations that see it
      const sealed = new Map<"whole" | "private", string>();
      for (const { destination, generation } of selectDeliveries(full, destinations.get(row.workspaceId)!)) {
        const view = generation === full ? "whole" : "private";
        if (!sealed.has(view)) sealed.set(view, sealObserved(deps.secrets, generation));
        jobs.push(deliverJob(destination.id, full.id, sealed.get(view)!, now));
      }
    }
    const seqs = rows.map((r) => r.seq);
    const enqueue: HandOffEnqueue = (lease, slots) =>
      deps.store.transaction(async (tx) => {
        // one synchronous step on SQLite: the write lock is held for the inserts, not for awaits
        const stored = await tx.jobs.enqueueMany(jobs.map((job, i) => (i < slots ? { ...job, lease } : job)));
        await tx.observationOutbox.remove(seqs);
        // a job stored before (a drain rerun) is not this lease's, even under the same owner
        return stored.filter((s, i) => i < slots && s.createdAt === jobs[i]!.now && s.leaseExpiresAt === lease.expiresAt && s.leaseOwner === lease.owner);
      });
    await (deps.handOff ? deps.handOff(enqueue) : enqueue({ owner: "", expiresAt: 0 }, 0));
    taken += rows.length;
    deliveries += jobs.length;
  }
}

/** An outbox row's generation: whole in the row (earlier versions), or its record with the row's parts; null (logged) when it cannot be had. */
async function observedOrLogged(deps: Pick<DrainDeps, "store" | "secrets" | "logger">, row: { generationId: string; sealed: string }): Promise<ObservedGeneration | null> {
  let document: ReturnType<typeof openOutboxDocument>;
  try {
    document = openOutboxDocument(deps.secrets, row.sealed);
  } catch (err) {
    deps.logger.error("an observed generation could not be opened; it is not forwarded", { generation: row.generationId, error: String(err) });
    return null;
  }
  if ("generation" in document) return document.generation;
  const record = await deps.store.generations.get(row.generationId);
  if (!record) {
    deps.logger.error("an observed generation has no record; it is not forwarded", { generation: row.generationId });
    return null;
  }
  return observedGeneration(record, document.parts);
}
