import { and, eq, isNull, type Placeholder } from "drizzle-orm";
import type { observabilityDestinations } from "../tables/observability";
import type { EitherTable, Ordering } from "./shapes";

/** The conditions and order of observability destinations (soft deleted: a deleted row is not live). */
export function destinationQueries(t: EitherTable<typeof observabilityDestinations>, o: Ordering) {
  const live = isNull(t.deletedAt);
  const ofWorkspace = (workspaceId: string) => and(live, eq(t.workspaceId, workspaceId));
  return {
    /** a live destination; a placeholder where the statement is prepared once */
    byId: (id: string | Placeholder) => and(eq(t.id, id), live),
    ofWorkspace,
    ofType: (workspaceId: string, type: string) => and(ofWorkspace(workspaceId), eq(t.type, type)),
    enabledIn: (workspaceId: string | Placeholder) => and(live, eq(t.enabled, true), eq(t.workspaceId, workspaceId)),
    order: [o.ascValue(t.createdAt), o.ascText(t.id)],
  };
}

/** What deleting a destination (or its workspace) leaves of it: disabled, its secrets gone. */
export const retiredDestination = (now: number) => ({ deletedAt: now, updatedAt: now, enabled: false, sealedConfig: "{}" });
