import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { responseItems, storedResponses } from "../tables/presets-responses";
import type { EitherTable } from "./shapes";

/** The conditions and orders of stored Responses state; what has expired at `now` is not found. */
export function responseQueries(r: EitherTable<typeof storedResponses>, i: EitherTable<typeof responseItems>) {
  return {
    items: (workspaceId: string, ids: string[], now: number) => and(eq(i.workspaceId, workspaceId), inArray(i.itemId, ids), gt(i.expiresAt, now)),
    /** storage order: oldest expiry first, so that a later response's item wins an id stored twice (itemsById) */
    itemsOrder: [asc(i.expiresAt), asc(i.responseId), asc(i.position)],
    response: (workspaceId: string, responseId: string, now: number) => and(eq(r.id, responseId), eq(r.workspaceId, workspaceId), gt(r.expiresAt, now)),
    outputOf: (responseId: string) => eq(i.responseId, responseId),
    outputOrder: [asc(i.position)],
  };
}
