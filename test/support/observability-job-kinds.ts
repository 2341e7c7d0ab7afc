/**
 * A job kind for tests, loaded into the workers' registry through `jobModules`: it sends one
 * generation to one destination the way a delivery job does (read afresh through
 * `deps.observability`, the type's sender, the worker's own outbound policy), so a test can show
 * the worker thread's wiring without the pipeline.
 */
import { PermanentFailure, RetryAfter } from "../../src/jobs/job-errors";
import type { JobDeps } from "../../src/jobs/kinds/job-deps";
import type { JobKind } from "../../src/jobs/registry";
import type { ObservedGeneration } from "../../src/observability/contract";
import { senderDepsOf } from "../../src/observability/sender-http";

export type SendPayload = { destination_id: string; generation: ObservedGeneration };

export function jobKinds(deps: JobDeps): JobKind[] {
  return [
    {
      kind: "test.observability-send",
      maxAttempts: 3,
      async run(payload) {
        const { destination_id, generation } = payload as SendPayload;
        const destination = await deps.observability.destinations.byId(destination_id);
        if (!destination || !destination.enabled) throw new PermanentFailure("the destination is gone or disabled");
        const outcome = await deps.observability
          .senders(destination.type)
          .send(generation, destination, senderDepsOf({ config: deps.config, clock: deps.clock }));
        if (outcome.kind === "retry")
          throw outcome.afterSeconds === undefined ? new Error(outcome.reason) : new RetryAfter(outcome.afterSeconds, outcome.reason);
        if (outcome.kind === "failed") throw new PermanentFailure(outcome.reason);
      },
    },
  ];
}
