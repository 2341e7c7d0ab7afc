import { count } from "drizzle-orm";
import { destinationColumns, destinationRecord, destinationRow } from "../destination-rows";
import type { DestinationStore } from "../destination-store";
import { destinationQueries, retiredDestination } from "../queries/destinations";
import type { Conn } from "./client";
import { order } from "./order";
import { observabilityDestinations as destinations } from "./schema";

export function pgDestinationStore({ db }: Conn): DestinationStore {
  const q = destinationQueries(destinations, order);
  return {
    async create(record) {
      await db.insert(destinations).values(destinationRow(record));
      return record;
    },
    async get(id) {
      const [row] = await db.select().from(destinations).where(q.byId(id));
      return row ? destinationRecord(row) : undefined;
    },
    async list(workspaceId, offset, limit) {
      const rows = await db
        .select()
        .from(destinations)
        .where(q.ofWorkspace(workspaceId))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset);
      return rows.map(destinationRecord);
    },
    async count(workspaceId) {
      const [row] = await db.select({ n: count() }).from(destinations).where(q.ofWorkspace(workspaceId));
      return row?.n ?? 0;
    },
    async countOfType(workspaceId, type) {
      const [row] = await db.select({ n: count() }).from(destinations).where(q.ofType(workspaceId, type));
      return row?.n ?? 0;
    },
    async update(id, patch, now) {
      const [row] = await db
        .update(destinations)
        .set({ ...destinationColumns(patch), updatedAt: now })
        .where(q.byId(id))
        .returning();
      return row ? destinationRecord(row) : undefined;
    },
    async delete(id, now) {
      const rows = await db.update(destinations).set(retiredDestination(now)).where(q.byId(id)).returning({ id: destinations.id });
      return rows.length > 0;
    },
    async enabledIn(workspaceId) {
      const rows = await db
        .select()
        .from(destinations)
        .where(q.enabledIn(workspaceId))
        .orderBy(...q.order);
      return rows.map(destinationRecord);
    },
  };
}
