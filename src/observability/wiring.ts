import type { JobDeps } from "../jobs/kinds";
import type { ObservabilityParts } from "./jobs/parts";

/**
 * ═══ INTEGRATION POINT (issue 18) ═══
 * The one place where forwarding meets the parts built beside it: return the destinations (the
 * obs-api store's `DestinationReader`, e.g. `ctx.observability.destinations` built over
 * `deps.store`) and the `SenderRegistry` (`senderFor` of src/observability/senders.ts). Job
 * workers call this once at start. Until it is connected it returns null: the dispatch job of a
 * workspace with broadcast on finds no destination and forwards nothing (I/O logging does not
 * depend on it). Tests inject their own parts through a job module's `observabilityParts`
 * export (see worker-main.ts).
 */
export function observabilityParts(_deps: JobDeps): ObservabilityParts | null {
  return null;
}
