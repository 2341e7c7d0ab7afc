import { and, asc, count, eq, isNull, max, or, sql, type SQL } from "drizzle-orm";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { byokCredentials } from "./schema";
import type { ByokFilter, ByokRecord, ByokStore } from "../store";
import { byokColumns, byokRecord } from "../columns";

export function sqliteByokStore(db: Db, write: WriteStep, writer: SqliteWriter): ByokStore {
  const live = isNull(byokCredentials.deletedAt);
  const where = (filter: ByokFilter): SQL => {
    const parts: SQL[] = [live];
    if (filter.workspaceId !== undefined) parts.push(eq(byokCredentials.workspaceId, filter.workspaceId));
    if (filter.provider !== undefined) parts.push(eq(byokCredentials.provider, filter.provider));
    return and(...parts)!;
  };
  const order = [asc(byokCredentials.sortOrder), asc(byokCredentials.createdAt), asc(byokCredentials.id)];
  // prepared once: every inference request asks which credentials its workspace has
  const usableIn = db
    .select()
    .from(byokCredentials)
    .where(and(live, eq(byokCredentials.disabled, false), or(eq(byokCredentials.workspaceId, sql.placeholder("workspaceId")), isNull(byokCredentials.workspaceId))))
    .orderBy(...order)
    .prepare();
  return {
    create: (cred) =>
      write(() => writer.atomic(() => {
      const scope = and(
        live,
        eq(byokCredentials.provider, cred.provider),
        cred.workspaceId === null ? isNull(byokCredentials.workspaceId) : eq(byokCredentials.workspaceId, cred.workspaceId),
      );
      const last = db.select({ n: max(byokCredentials.sortOrder) }).from(byokCredentials).where(scope).get()?.n;
      const record: ByokRecord = { ...cred, sortOrder: last === null || last === undefined ? 0 : last + 1 };
      db.insert(byokCredentials).values({ ...record, ...byokColumns(record) }).run();
      return record;
    })),
    async get(id) {
      const row = db.select().from(byokCredentials).where(and(eq(byokCredentials.id, id), live)).get();
      return row ? byokRecord(row) : undefined;
    },
    async list(filter, offset, limit) {
      return db
        .select()
        .from(byokCredentials)
        .where(where(filter))
        .orderBy(asc(byokCredentials.workspaceId), asc(byokCredentials.provider), ...order)
        .limit(limit)
        .offset(offset)
        .all()
        .map(byokRecord);
    },
    async count(filter) {
      return db.select({ n: count() }).from(byokCredentials).where(where(filter)).get()?.n ?? 0;
    },
    update: (id, patch, now) =>
      write(() => {
      const row = db
        .update(byokCredentials)
        .set({ ...byokColumns(patch), updatedAt: now })
        .where(and(eq(byokCredentials.id, id), live))
        .returning()
        .get();
      return row ? byokRecord(row) : undefined;
    }),
    delete: (id, now) =>
      write(() => {
      const row = db
        .update(byokCredentials)
        .set({ deletedAt: now, encryptedKey: "", disabled: true, updatedAt: now })
        .where(and(eq(byokCredentials.id, id), live))
        .returning({ id: byokCredentials.id })
        .get();
      return row !== undefined;
    }),
    async usable(workspaceId) {
      return usableIn.all({ workspaceId }).map(byokRecord);
    },
  };
}
