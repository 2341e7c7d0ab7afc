import { and, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import type { AuditFilter } from "../audit-store";
import type { auditEvents } from "../tables/audit";
import type { EitherTable } from "./shapes";

/** The conditions of a listing's filter. */
export function auditFilter(t: EitherTable<typeof auditEvents>, filter: AuditFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.actorId !== undefined) conditions.push(eq(t.actorId, filter.actorId));
  if (filter.action !== undefined) conditions.push(eq(t.action, filter.action));
  if (filter.actions !== undefined) conditions.push(inArray(t.action, [...filter.actions]));
  if (filter.targetId !== undefined) conditions.push(eq(t.targetId, filter.targetId));
  if (filter.since !== undefined) conditions.push(gte(t.createdAt, filter.since));
  if (filter.until !== undefined) conditions.push(lt(t.createdAt, filter.until));
  if (filter.beforeSeq !== undefined) conditions.push(lt(t.seq, filter.beforeSeq));
  return and(...conditions);
}
