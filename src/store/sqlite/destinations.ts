import { count, sql } from "drizzle-orm";
import { destinationColumns, destinationRecord, destinationRow } from "../destination-rows";
import type { DestinationStore } from "../destination-store";
import { destinationQueries, retiredDestination } from "../queries/destinations";
import type { Db, WriteStep } from "./client";
import { order } from "./order";
import { observabilityDestinations as destinations } from "./schema";

export function sqliteDestinationStore(db: Db, write: WriteStep): DestinationStore {
  const q = destinationQueries(destinations, order);
  // prepared once: every generation of a workspace asks which destinations it goes to (behind the read cache)
  const enabledIn = db
    .select()
    .from(destinations)
    .where(q.enabledIn(sql.placeholder("workspaceId")))
    .orderBy(...q.order)
    .prepare();
  // prepared once: every delivery job reads its destination afresh
  const byId = db
    .select()
    .from(destinations)
    .where(q.byId(sql.placeholder("id")))
    .prepare();
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
      return db
        .select()
        .from(destinations)
        .where(q.ofWorkspace(workspaceId))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset)
        .all()
        .map(destinationRecord);
    },
    async count(workspaceId) {
      return db.select({ n: count() }).from(destinations).where(q.ofWorkspace(workspaceId)).get()?.n ?? 0;
    },
    async countOfType(workspaceId, type) {
      return db.select({ n: count() }).from(destinations).where(q.ofType(workspaceId, type)).get()?.n ?? 0;
    },
    update: (id, patch, now) =>
      write(() => {
        const row = db
          .update(destinations)
          .set({ ...destinationColumns(patch), updatedAt: now })
          .where(q.byId(id))
          .returning()
          .get();
        return row ? destinationRecord(row) : undefined;
      }),
    delete: (id, now) =>
      write(() => db.update(destinations).set(retiredDestination(now)).where(q.byId(id)).returning({ id: destinations.id }).get() !== undefined),
    async enabledIn(workspaceId) {
      return enabledIn.all({ workspaceId }).map(destinationRecord);
    },
  };
}
