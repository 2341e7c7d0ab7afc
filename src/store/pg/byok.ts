import { count, max } from "drizzle-orm";
import { byokColumns, byokRecord } from "../columns";
import { byokQueries, nextSortOrder, wipedCredential } from "../queries/byok";
import type { ByokRecord, ByokStore } from "../store";
import { type Conn, lockedTransaction } from "./client";
import { order } from "./order";
import { byokCredentials } from "./schema";

export function pgByokStore(conn: Conn): ByokStore {
  const { db } = conn;
  const q = byokQueries(byokCredentials, order);
  return {
    create(cred) {
      // read the last sort_order and insert under the transaction lock: two creations never share one
      return lockedTransaction(conn, async (tx) => {
        const [last] = await tx
          .select({ n: max(byokCredentials.sortOrder) })
          .from(byokCredentials)
          .where(q.siblings(cred));
        const record: ByokRecord = { ...cred, sortOrder: nextSortOrder(last?.n) };
        await tx.insert(byokCredentials).values({ ...record, ...byokColumns(record) });
        return record;
      });
    },
    async get(id) {
      const [row] = await db.select().from(byokCredentials).where(q.byId(id));
      return row ? byokRecord(row) : undefined;
    },
    async list(filter, offset, limit) {
      const rows = await db
        .select()
        .from(byokCredentials)
        .where(q.filtered(filter))
        .orderBy(...q.listOrder)
        .limit(limit)
        .offset(offset);
      return rows.map(byokRecord);
    },
    async count(filter) {
      const [row] = await db.select({ n: count() }).from(byokCredentials).where(q.filtered(filter));
      return row?.n ?? 0;
    },
    async update(id, patch, now) {
      const [row] = await db
        .update(byokCredentials)
        .set({ ...byokColumns(patch), updatedAt: now })
        .where(q.byId(id))
        .returning();
      return row ? byokRecord(row) : undefined;
    },
    async delete(id, now) {
      const rows = await db
        .update(byokCredentials)
        .set({ ...wipedCredential(now), updatedAt: now })
        .where(q.byId(id))
        .returning({ id: byokCredentials.id });
      return rows.length > 0;
    },
    async usable(workspaceId) {
      const rows = await db
        .select()
        .from(byokCredentials)
        .where(q.usableIn(workspaceId))
        .orderBy(...q.usableOrder);
      return rows.map(byokRecord);
    },
  };
}
