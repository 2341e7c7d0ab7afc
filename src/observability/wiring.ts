import type { JobDeps } from "../jobs/kinds";
import type { ObservabilityParts } from "./jobs/parts";

/**
 * ═══ INTEGRATION POINT (issue 18) ═══
 * The one place where forwarding meets the parts built beside it: return the destinations (the
 * obs-api store's `DestinationReader`, built over the job worker's own `deps.store`, opening
 * sealed config with `deps.secrets`) and the `SenderRegistry` (`senderFor` of
 * src/observability/senders.ts). Every job worker calls this once at start: worker 0 drains the
 * observation outbox with it, every worker delivers with it. Nothing on the request path needs
 * it. Until it is connected it returns null: generations of a workspace with broadcast on leave
 * the outbox with nowhere to go (one warn line says so; I/O logging does not depend on it).
 * Tests inject their own parts through a job module's `observabilityParts` export (see
 * src/jobs/worker-main.ts).
 */
export function observabilityParts(_deps: JobDeps): ObservabilityParts | null {
  return null;
}
