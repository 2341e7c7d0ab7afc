import type { Config } from "../../config";
import type { DestinationStore } from "../../store/destination-store";
import type { ForwardTarget } from "../pipeline/select-deliveries";

/** A workspace's enabled destinations as the request side reads them: whom each takes, nothing opened. */
export type DestinationTargets = (workspaceId: string) => Promise<readonly ForwardTarget[]>;

/** A test job module that replaces the workers' destinations (its `observabilityParts`) tells the request side the same list. */
type TargetsModule = { destinationTargets?: (config: Config) => DestinationTargets };

/**
 * The store's enabled destinations of a workspace (through the read cache: no query per request),
 * unless one of the test job modules (`jobModules`) answers them instead, as it does for the
 * job workers' pipeline: the two sides must see the same destinations.
 */
export async function destinationTargets(
  store: { destinations: Pick<DestinationStore, "enabledIn"> },
  config: Config,
  jobModules: readonly string[] = [],
): Promise<DestinationTargets> {
  for (const specifier of jobModules) {
    const mod = (await import(specifier)) as TargetsModule;
    if (typeof mod.destinationTargets === "function") return mod.destinationTargets(config);
  }
  return (workspaceId) => store.destinations.enabledIn(workspaceId);
}
