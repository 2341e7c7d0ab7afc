import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { guardrailKeyAssignments, guardrailMemberAssignments, guardrails } from "../tables/guardrails";
import type { EitherTable, Ordering } from "./shapes";

export function guardrailQueries(
  t: EitherTable<typeof guardrails>,
  keys: EitherTable<typeof guardrailKeyAssignments>,
  members: EitherTable<typeof guardrailMemberAssignments>,
  o: Ordering,
) {
  return {
    ofWorkspace: (workspaceId: string) => eq(t.workspaceId, workspaceId),
    /** oldest first; guardrails made in the same millisecond in the order they were written */
    order: [asc(t.createdAt), o.inserted],
    keysOf: (guardrailId: string | null): SQL | undefined => (guardrailId === null ? undefined : eq(keys.guardrailId, guardrailId)),
    keysIn: (guardrailId: string, keyHashes: readonly string[]) => and(eq(keys.guardrailId, guardrailId), inArray(keys.keyHash, [...keyHashes])),
    keyOrder: [asc(keys.createdAt), o.insertedIn("guardrail_key_assignments")],
    membersOf: (guardrailId: string | null): SQL | undefined => (guardrailId === null ? undefined : eq(members.guardrailId, guardrailId)),
    membersIn: (guardrailId: string, userIds: readonly string[]) => and(eq(members.guardrailId, guardrailId), inArray(members.userId, [...userIds])),
    memberOrder: [asc(members.createdAt), o.inserted],
  };
}
