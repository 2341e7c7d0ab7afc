import type { SecretBox } from "../../crypto/secret-box";
import type { JobKind } from "../../jobs/registry";
import type { Logger } from "../../logger";
import type { NewJob } from "../../store/job-store";
import type { Store } from "../../store/store";
import { broadcastEnabled } from "../capture/io-logging";
import type { ObservedGeneration } from "../contract";
import { selectDeliveries } from "../pipeline/select-deliveries";
import { deliverJob } from "./deliver-kind";
import type { ObservabilityParts } from "./parts";
import { openPayload, sealPayload } from "./sealed-payload";

export const OBSERVABILITY_DISPATCH = "observability.dispatch";

/** What a dispatch job carries (sealed): the generation with its content, before any destination's privacy mode. */
export type DispatchJob = { generation: ObservedGeneration };

/** The job a forwarded generation's record commits with (its outbox); one per generation. */
export function dispatchJob(secrets: Pick<SecretBox, "sealSync">, generation: ObservedGeneration, now: number): NewJob {
  return { id: crypto.randomUUID(), kind: OBSERVABILITY_DISPATCH, key: `${OBSERVABILITY_DISPATCH}:${generation.id}`, payload: sealPayload(secrets, { generation } satisfies DispatchJob), runAt: now, now };
}

export type DispatchDeps = { store: Pick<Store, "workspaces" | "transaction">; secrets: Pick<SecretBox, "open" | "sealSync">; clock: () => number; logger: Logger; parts: ObservabilityParts | null };

/**
 * Runs the pipeline for one recorded generation off the request's path: the workspace's enabled
 * destinations → key list → filter rules → sampling → privacy, then one delivery job per
 * destination left, all in one transaction. A rerun enqueues nothing twice (the jobs' keys).
 * A workspace that turned broadcast off since the request forwards nothing.
 */
export function dispatchKind(deps: DispatchDeps): JobKind {
  let warned = false;
  return {
    kind: OBSERVABILITY_DISPATCH,
    async run(payload) {
      const { generation } = await openPayload<DispatchJob>(deps.secrets, payload, OBSERVABILITY_DISPATCH);
      if (!deps.parts) {
        if (!warned) deps.logger.warn("observability broadcast is on, but this build has no destinations to forward to");
        warned = true;
        return;
      }
      const workspace = await deps.store.workspaces.find(generation.workspaceId);
      if (!workspace || !broadcastEnabled(workspace.settings)) return;
      const deliveries = selectDeliveries(generation, await deps.parts.destinations.enabledForWorkspace(generation.workspaceId));
      if (deliveries.length === 0) return;
      const now = deps.clock();
      await deps.store.transaction(async (tx) => {
        for (const delivery of deliveries) await tx.jobs.enqueue(deliverJob(deps.secrets, delivery, now));
      });
    },
  };
}
