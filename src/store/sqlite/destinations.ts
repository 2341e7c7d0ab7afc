import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Db, WriteStep } from "./client";
import { observabilityDestinations as destinations } from "./schema";
import type { DestinationStore } from "../destination-store";
import { destinationColumns, destinationRecord, destinationRow } from "../destination-rows";

export function sqliteDestinationStore(db: Db, write: WriteStep): DestinationStore {
  const live = isNull(destinations.deletedAt);
  const ofWorkspace = (workspaceId: string) => and(live, eq(destinations.workspaceId, workspaceId));
  const order = [asc(destinations.createdAt), asc(destinations.id)];
  // prepared once: every generation of a workspace asks which destinations it goes to (behind the read cache)
  const enabledIn = db
    .select()
    .from(destinations)
    .where(and(live, eq(destinations.enabled, true), eq(destinations.workspaceId, sql.placeholder("workspaceId"))))
    .orderBy(...order)
    .prepare();
  // prepared once: every delivery job reads its destination afresh
  const byId = db.select().from(destinations).where(and(eq(destinations.id, sql.placeholder("id")), live)).prepare();
  return {
    create: (record) =>
      write(() => {
        db.insert(destinations).values(destinationRow(record)).run();
        return record;
      }),
    async get(id) {
      const row = byId.get({ id });
      return row ? destinationRecord(row) : undefined;
    },
    async list(workspaceId, offset, limit) {
      return db.select().from(destinations).where(ofWorkspace(workspaceId)).orderBy(...order).limit(limit).offset(offset).all().map(destinationRecord);
    },
    async count(workspaceId) {
      return db.select({ n: count() }).from(destinations).where(ofWorkspace(workspaceId)).get()?.n ?? 0;
    },
    async countOfType(workspaceId, type) {
      return db.select({ n: count() }).from(destinations).where(and(ofWorkspace(workspaceId), eq(destinations.type, type))).get()?.n ?? 0;
    },
    update: (id, patch, now) =>
      write(() => {
        const row = db
          .update(destinations)
          .set({ ...destinationColumns(patch), updatedAt: now })
          .where(and(eq(destinations.id, id), live))
          .returning()
          .get();
        return row ? destinationRecord(row) : undefined;
      }),
    delete: (id, now) =>
      write(() => {
        const row = db
          .update(destinations)
          .set({ deletedAt: now, updatedAt: now, enabled: false, sealedConfig: "{}" })
          .where(and(eq(destinations.id, id), live))
          .returning({ id: destinations.id })
          .get();
        return row !== undefined;
      }),
    async enabledIn(workspaceId) {
      return enabledIn.all({ workspaceId }).map(destinationRecord);
    },
  };
}
