import { and, asc, eq, inArray } from "drizzle-orm";
import type { workspaceMembers } from "../tables/accounts";
import type { EitherTable, Ordering } from "./shapes";

export function memberQueries(t: EitherTable<typeof workspaceMembers>, o: Ordering) {
  return {
    membership: (workspaceId: string, userId: string) => and(eq(t.workspaceId, workspaceId), eq(t.userId, userId)),
    members: (workspaceId: string, userIds: string[]) => and(eq(t.workspaceId, workspaceId), inArray(t.userId, userIds)),
    /** oldest first; memberships made together in the order they were written */
    order: [asc(t.createdAt), o.inserted],
  };
}
