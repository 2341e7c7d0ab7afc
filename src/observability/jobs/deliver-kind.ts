import type { SecretBox } from "../../crypto/secret-box";
import { PermanentFailure, RetryAfter } from "../../jobs/job-errors";
import type { JobKind } from "../../jobs/registry";
import type { NewJob } from "../../store/job-store";
import { DELIVERED, type Destination, type ObservedGeneration, type SenderDeps, type SendOutcome } from "../contract";
import { withoutContent } from "../pipeline/privacy";
import type { ObservabilityParts } from "./parts";
import { openPayloadGeneration } from "./sealed-payload";

export const OBSERVABILITY_DELIVER = "observability.deliver";

/** What a delivery job carries: the destination and the generation as it may see it (privacy applied), sealed. */
export type DeliverJob = { destination_id: string; sealed: string };

export const deliverJobId = (destinationId: string, generationId: string): string => `${OBSERVABILITY_DELIVER}:${generationId}:${destinationId}`;

/** One job per destination and generation: the key makes a second enqueue (a rerun drain) a no-op. */
export function deliverJob(destinationId: string, generationId: string, sealed: string, now: number): NewJob {
  return {
    id: deliverJobId(destinationId, generationId),
    kind: OBSERVABILITY_DELIVER,
    key: `${destinationId}:${generationId}`,
    payload: { destination_id: destinationId, sealed } satisfies DeliverJob,
    runAt: now,
    now,
  };
}

/** A sender's verdict that it was not delivered as the job machinery takes it: retried (after the destination's delay when it named one), or dead. */
export function undeliveredError(outcome: Exclude<SendOutcome, { kind: "delivered" }>): Error {
  if (outcome.kind === "failed") return new PermanentFailure(outcome.reason);
  return outcome.afterSeconds === undefined ? new Error(outcome.reason) : new RetryAfter(outcome.afterSeconds, outcome.reason);
}

export function settleOutcome(outcome: SendOutcome): void {
  if (outcome.kind !== "delivered") throw undeliveredError(outcome);
}

export type DeliverDeps = { secrets: Pick<SecretBox, "openOnce">; senderDeps: SenderDeps; parts: ObservabilityParts | null };

/** Sends a generation (as the destination may see it) to a destination by its type's sender; throws as settleOutcome does. */
export async function sendDelivery(deps: Pick<DeliverDeps, "senderDeps" | "parts">, destination: Destination, generation: ObservedGeneration): Promise<void> {
  if (!deps.parts) return;
  settleOutcome(await deps.parts.senders(destination.type).send(generation, destination, deps.senderDeps));
}

/** Sends generations to one destination, together when its type can (DestinationSender.sendMany); each one's outcome, in order. */
export function sendDeliveries(
  deps: Pick<DeliverDeps, "senderDeps" | "parts">,
  destination: Destination,
  generations: readonly ObservedGeneration[],
): Promise<readonly SendOutcome[]> {
  if (!deps.parts) return Promise.resolve(generations.map(() => DELIVERED));
  const sender = deps.parts.senders(destination.type);
  if (generations.length > 1 && sender.sendMany) return sender.sendMany(generations, destination, deps.senderDeps);
  return Promise.all(generations.map((generation) => sender.send(generation, destination, deps.senderDeps)));
}

/**
 * Sends one generation to one destination. The destination is read afresh: deleted or disabled
 * since, the job is done with nothing sent; privacy mode turned on since, the content stays
 * behind. The sender classifies the answer by its type's own rules.
 */
export function deliverKind(deps: DeliverDeps): JobKind {
  return {
    kind: OBSERVABILITY_DELIVER,
    // the payload is the generation as the destination sees it, prompt and completion included
    dropPayloadWhenDone: true,
    async run(payload) {
      const job = payload as Partial<DeliverJob> | null;
      if (typeof job?.destination_id !== "string") throw new PermanentFailure(`not an ${OBSERVABILITY_DELIVER} payload`);
      const sealed = openPayloadGeneration(deps.secrets, job.sealed, OBSERVABILITY_DELIVER);
      if (!deps.parts) return;
      const destination = await deps.parts.destinations.byId(job.destination_id);
      if (!destination || !destination.enabled || destination.workspaceId !== sealed.workspaceId) return;
      await sendDelivery(deps, destination, destination.privacyMode ? withoutContent(sealed) : sealed);
    },
  };
}
