import { and, eq, isNull, or, type Placeholder, type SQL } from "drizzle-orm";
import type { ByokFilter, ByokRecord } from "../store";
import type { byokCredentials } from "../tables/accounts";
import type { EitherTable, Ordering } from "./shapes";

/** The conditions and orders of BYOK credentials (soft deleted: a deleted row is not live). */
export function byokQueries(t: EitherTable<typeof byokCredentials>, o: Ordering) {
  const live = isNull(t.deletedAt);
  const bySortOrder = [o.ascValue(t.sortOrder), o.ascValue(t.createdAt), o.ascText(t.id)];
  return {
    /** a live credential */
    byId: (id: string) => and(eq(t.id, id), live),
    filtered(filter: ByokFilter): SQL {
      const parts: SQL[] = [live];
      if (filter.workspaceId !== undefined) parts.push(eq(t.workspaceId, filter.workspaceId));
      if (filter.provider !== undefined) parts.push(eq(t.provider, filter.provider));
      return and(...parts)!;
    },
    listOrder: [o.ascText(t.workspaceId), o.ascText(t.provider), ...bySortOrder],
    /** the credentials a new one is numbered after: live, of its provider and workspace (or global) */
    siblings: (cred: Pick<ByokRecord, "provider" | "workspaceId">) =>
      and(live, eq(t.provider, cred.provider), cred.workspaceId === null ? isNull(t.workspaceId) : eq(t.workspaceId, cred.workspaceId)),
    /** enabled, of the workspace or global; a placeholder where the statement is prepared once */
    usableIn: (workspaceId: string | Placeholder) => and(live, eq(t.disabled, false), or(eq(t.workspaceId, workspaceId), isNull(t.workspaceId))),
    usableOrder: bySortOrder,
  };
}

/** A new credential goes after its siblings' last sort_order (null: it has none). */
export const nextSortOrder = (last: number | null | undefined): number => (last === null || last === undefined ? 0 : last + 1);

/** What deleting a credential (or its workspace) leaves of it: no key material, and never usable. */
export const wipedCredential = (now: number) => ({ deletedAt: now, encryptedKey: "", disabled: true });
