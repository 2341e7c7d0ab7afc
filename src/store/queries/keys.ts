import { and, eq, gt, isNull, or, type Placeholder } from "drizzle-orm";
import type { apiKeys } from "../tables/accounts";
import type { EitherTable, Ordering } from "./shapes";

/** The conditions, order and soft-delete values of API keys (a deleted key is not live and never authenticates). */
export function keyQueries(t: EitherTable<typeof apiKeys>, o: Ordering) {
  const live = isNull(t.deletedAt);
  return {
    /** a live key; a placeholder where the statement is prepared once */
    byHash: (hash: string | Placeholder) => and(eq(t.hash, hash), live),
    listed: (workspaceId: string, includeDisabled: boolean) => and(eq(t.workspaceId, workspaceId), live, includeDisabled ? undefined : eq(t.disabled, false)),
    byCreator: (userId: string) => and(eq(t.creatorUserId, userId), live),
    management: and(eq(t.isManagement, true), live),
    /** keys that still authenticate: live, enabled and not expired at `now` */
    activeIn: (workspaceId: string, now: number) =>
      and(eq(t.workspaceId, workspaceId), live, eq(t.disabled, false), or(isNull(t.expiresAt), gt(t.expiresAt, now))),
    order: [o.ascValue(t.createdAt), o.ascText(t.hash)],
  };
}

export const deletedKey = (now: number) => ({ deletedAt: now, disabled: true });

/** A stored key (deleted, disabled or expired) made a live management key of `workspaceId` again. */
export const revivedManagementKey = (now: number, workspaceId: string) => ({
  deletedAt: null,
  disabled: false,
  isManagement: true,
  expiresAt: null,
  updatedAt: now,
  workspaceId,
});
