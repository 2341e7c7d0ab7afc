import type { Destination, ObservedGeneration } from "../contract";
import { compileFilter } from "./filter-rules";
import { withoutContent } from "./privacy";
import { sampledIn } from "./sampling";

/** One generation as one destination is to receive it. */
export type Delivery = Readonly<{ destination: Destination; generation: ObservedGeneration }>;

/**
 * The forwarding pipeline for one generation, in the order of the design: for each enabled
 * destination of its workspace, its key list (null: every key) → its filter rules (read before
 * privacy) → deterministic sampling per destination and session → privacy mode. What is left is
 * one delivery per destination, each with exactly what that destination may see.
 */
export function selectDeliveries(generation: ObservedGeneration, destinations: readonly Destination[]): Delivery[] {
  const out: Delivery[] = [];
  for (const destination of destinations) {
    if (!destination.enabled || destination.workspaceId !== generation.workspaceId) continue;
    if (destination.apiKeyHashes !== null && !destination.apiKeyHashes.includes(generation.keyHash)) continue;
    if (!compileFilter(destination.filterRules)(generation)) continue;
    if (!sampledIn(destination.id, generation, destination.samplingRate)) continue;
    out.push({ destination, generation: destination.privacyMode ? withoutContent(generation) : generation });
  }
  return out;
}
