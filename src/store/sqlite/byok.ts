import { count, max, sql } from "drizzle-orm";
import { byokColumns, byokRecord } from "../columns";
import { byokQueries, nextSortOrder, wipedCredential } from "../queries/byok";
import type { ByokRecord, ByokStore } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import { byokCredentials } from "./schema";

export function sqliteByokStore(db: Db, write: WriteStep, writer: SqliteWriter): ByokStore {
  const q = byokQueries(byokCredentials, order);
  // prepared once: every inference request asks which credentials its workspace has
  const usableIn = db
    .select()
    .from(byokCredentials)
    .where(q.usableIn(sql.placeholder("workspaceId")))
    .orderBy(...q.usableOrder)
    .prepare();
  return {
    create: (cred) =>
      write(() =>
        writer.atomic(() => {
          const last = db
            .select({ n: max(byokCredentials.sortOrder) })
            .from(byokCredentials)
            .where(q.siblings(cred))
            .get()?.n;
          const record: ByokRecord = { ...cred, sortOrder: nextSortOrder(last) };
          db.insert(byokCredentials)
            .values({ ...record, ...byokColumns(record) })
            .run();
          return record;
        }),
      ),
    async get(id) {
      const row = db.select().from(byokCredentials).where(q.byId(id)).get();
      return row ? byokRecord(row) : undefined;
    },
    async list(filter, offset, limit) {
      return db
        .select()
        .from(byokCredentials)
        .where(q.filtered(filter))
        .orderBy(...q.listOrder)
        .limit(limit)
        .offset(offset)
        .all()
        .map(byokRecord);
    },
    async count(filter) {
      return db.select({ n: count() }).from(byokCredentials).where(q.filtered(filter)).get()?.n ?? 0;
    },
    update: (id, patch, now) =>
      write(() => {
        const row = db
          .update(byokCredentials)
          .set({ ...byokColumns(patch), updatedAt: now })
          .where(q.byId(id))
          .returning()
          .get();
        return row ? byokRecord(row) : undefined;
      }),
    delete: (id, now) =>
      write(
        () =>
          db
            .update(byokCredentials)
            .set({ ...wipedCredential(now), updatedAt: now })
            .where(q.byId(id))
            .returning({ id: byokCredentials.id })
            .get() !== undefined,
      ),
    async usable(workspaceId) {
      return usableIn.all({ workspaceId }).map(byokRecord);
    },
  };
}
