import { and, count, eq, isNull, max, or, type SQL } from "drizzle-orm";
import { lockedTransaction, type Conn } from "./client";
import { ascText, ascValue } from "./order";
import { byokCredentials } from "./schema";
import type { ByokFilter, ByokRecord, ByokStore } from "../store";
import { byokColumns, byokRecord } from "../columns";

export function pgByokStore(conn: Conn): ByokStore {
  const { db } = conn;
  const live = isNull(byokCredentials.deletedAt);
  const where = (filter: ByokFilter): SQL => {
    const parts: SQL[] = [live];
    if (filter.workspaceId !== undefined) parts.push(eq(byokCredentials.workspaceId, filter.workspaceId));
    if (filter.provider !== undefined) parts.push(eq(byokCredentials.provider, filter.provider));
    return and(...parts)!;
  };
  const order = [ascValue(byokCredentials.sortOrder), ascValue(byokCredentials.createdAt), ascText(byokCredentials.id)];
  return {
    create(cred) {
      // read the last sort_order and insert under the transaction lock: two creations never share one
      return lockedTransaction(conn, async (tx) => {
        const scope = and(
          live,
          eq(byokCredentials.provider, cred.provider),
          cred.workspaceId === null ? isNull(byokCredentials.workspaceId) : eq(byokCredentials.workspaceId, cred.workspaceId),
        );
        const [last] = await tx.select({ n: max(byokCredentials.sortOrder) }).from(byokCredentials).where(scope);
        const record: ByokRecord = { ...cred, sortOrder: last?.n === null || last?.n === undefined ? 0 : last.n + 1 };
        await tx.insert(byokCredentials).values({ ...record, ...byokColumns(record) });
        return record;
      });
    },
    async get(id) {
      const [row] = await db.select().from(byokCredentials).where(and(eq(byokCredentials.id, id), live));
      return row ? byokRecord(row) : undefined;
    },
    async list(filter, offset, limit) {
      const rows = await db
        .select()
        .from(byokCredentials)
        .where(where(filter))
        .orderBy(ascText(byokCredentials.workspaceId), ascText(byokCredentials.provider), ...order)
        .limit(limit)
        .offset(offset);
      return rows.map(byokRecord);
    },
    async count(filter) {
      const [row] = await db.select({ n: count() }).from(byokCredentials).where(where(filter));
      return row?.n ?? 0;
    },
    async update(id, patch, now) {
      const [row] = await db
        .update(byokCredentials)
        .set({ ...byokColumns(patch), updatedAt: now })
        .where(and(eq(byokCredentials.id, id), live))
        .returning();
      return row ? byokRecord(row) : undefined;
    },
    async delete(id, now) {
      const rows = await db
        .update(byokCredentials)
        .set({ deletedAt: now, encryptedKey: "", disabled: true, updatedAt: now })
        .where(and(eq(byokCredentials.id, id), live))
        .returning({ id: byokCredentials.id });
      return rows.length > 0;
    },
    async usable(workspaceId) {
      const rows = await db
        .select()
        .from(byokCredentials)
        .where(and(live, eq(byokCredentials.disabled, false), or(eq(byokCredentials.workspaceId, workspaceId), isNull(byokCredentials.workspaceId))))
        .orderBy(...order);
      return rows.map(byokRecord);
    },
  };
}
