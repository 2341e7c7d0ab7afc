import type { Destination, ObservedGeneration } from "../contract";
import { compileFilter } from "./filter-rules";
import { withoutContent } from "./privacy";
import { sampledIn } from "./sampling";

/** Whether a destination's key list (null: every key) takes a key's generations. */
const takesKey = (destination: Pick<Destination, "apiKeyHashes">, keyHash: string): boolean =>
  destination.apiKeyHashes === null || destination.apiKeyHashes.includes(keyHash);

/** What a destination's choices read before a generation has an outcome: its id, its key list, its sampling rate. */
export type ForwardTarget = Pick<Destination, "id" | "apiKeyHashes" | "samplingRate">;

/**
 * Whether any of a workspace's enabled destinations may take a request's generation, decided
 * when it is planned: the pipeline's own key and sampling checks (below), which need no outcome.
 * False means no destination would ever receive it, so nothing is captured or sealed for it; true
 * leaves the decision to the pipeline (the filter rules read the outcome).
 */
export function mayForward(targets: readonly ForwardTarget[], keyHash: string, request: Pick<ObservedGeneration, "id" | "sessionId" | "trace">): boolean {
  return targets.some((target) => takesKey(target, keyHash) && sampledIn(target.id, request, target.samplingRate));
}

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
    if (!takesKey(destination, generation.keyHash)) continue;
    if (!compileFilter(destination.filterRules)(generation)) continue;
    if (!sampledIn(destination.id, generation, destination.samplingRate)) continue;
    out.push({ destination, generation: destination.privacyMode ? withoutContent(generation) : generation });
  }
  return out;
}
