import type { Catalog } from "../../catalog/types";
import type { RouterState } from "./router-state";

/** The endpoints whose circuit is not closed, named with their provider, for the metrics scrape. */
export function circuitStates(router: RouterState, catalog: Catalog): Array<{ endpoint: string; provider: string; state: "open" | "half_open" }> {
  const notClosed = router.circuits.notClosed();
  if (notClosed.length === 0) return [];
  const providerOf = new Map(catalog.models().flatMap((m) => m.endpoints.map((e) => [e.id, e.provider.slug] as const)));
  return notClosed.map(({ id, health }) => ({ endpoint: id, provider: providerOf.get(id) ?? "", state: health === "open" ? "open" : "half_open" }));
}
