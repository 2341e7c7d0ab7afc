import type { SecretBox } from "../../crypto/secret-box";
import { PermanentFailure, RetryAfter } from "../../jobs/job-errors";
import type { JobKind } from "../../jobs/registry";
import type { NewJob } from "../../store/job-store";
import type { ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import type { Delivery } from "../pipeline/select-deliveries";
import { withoutContent } from "../pipeline/privacy";
import type { ObservabilityParts } from "./parts";
import { openPayload, sealPayload } from "./sealed-payload";

export const OBSERVABILITY_DELIVER = "observability.deliver";

/** What a delivery job carries (sealed): the destination's id and the generation as it may see it. */
export type DeliverJob = { destination_id: string; generation: ObservedGeneration };

/** One job per destination and generation: the key makes a second enqueue (a rerun dispatch) a no-op. */
export function deliverJob(secrets: Pick<SecretBox, "sealSync">, delivery: Delivery, now: number): NewJob {
  const job: DeliverJob = { destination_id: delivery.destination.id, generation: delivery.generation };
  return { id: crypto.randomUUID(), kind: OBSERVABILITY_DELIVER, key: `${delivery.destination.id}:${delivery.generation.id}`, payload: sealPayload(secrets, job), runAt: now, now };
}

/** A sender's verdict as the job machinery takes it: retried (after the destination's delay when it named one), or dead. */
export function settleOutcome(outcome: SendOutcome): void {
  switch (outcome.kind) {
    case "delivered":
      return;
    case "retry":
      throw outcome.afterSeconds === undefined ? new Error(outcome.reason) : new RetryAfter(outcome.afterSeconds, outcome.reason);
    case "failed":
      throw new PermanentFailure(outcome.reason);
  }
}

export type DeliverDeps = { secrets: Pick<SecretBox, "open">; senderDeps: SenderDeps; parts: ObservabilityParts | null };

/**
 * Sends one generation to one destination. The destination is read afresh: deleted or disabled
 * since, the job is done with nothing sent; privacy mode turned on since, the content stays
 * behind. The sender classifies the answer by its type's own rules.
 */
export function deliverKind(deps: DeliverDeps): JobKind {
  return {
    kind: OBSERVABILITY_DELIVER,
    async run(payload) {
      const job = await openPayload<DeliverJob>(deps.secrets, payload, OBSERVABILITY_DELIVER);
      if (!deps.parts) return;
      const destination = await deps.parts.destinations.byId(job.destination_id);
      if (!destination || !destination.enabled || destination.workspaceId !== job.generation.workspaceId) return;
      const generation = destination.privacyMode ? withoutContent(job.generation) : job.generation;
      settleOutcome(await deps.parts.senders(destination.type).send(generation, destination, deps.senderDeps));
    },
  };
}
