import { and, count, eq, isNull } from "drizzle-orm";
import type { Conn } from "./client";
import { ascText, ascValue } from "./order";
import { observabilityDestinations as destinations } from "./schema";
import type { DestinationStore } from "../destination-store";
import { destinationColumns, destinationRecord, destinationRow } from "../destination-rows";

export function pgDestinationStore({ db }: Conn): DestinationStore {
  const live = isNull(destinations.deletedAt);
  const ofWorkspace = (workspaceId: string) => and(live, eq(destinations.workspaceId, workspaceId));
  const order = [ascValue(destinations.createdAt), ascText(destinations.id)];
  return {
    async create(record) {
      await db.insert(destinations).values(destinationRow(record));
      return record;
    },
    async get(id) {
      const [row] = await db.select().from(destinations).where(and(eq(destinations.id, id), live));
      return row ? destinationRecord(row) : undefined;
    },
    async list(workspaceId, offset, limit) {
      const rows = await db.select().from(destinations).where(ofWorkspace(workspaceId)).orderBy(...order).limit(limit).offset(offset);
      return rows.map(destinationRecord);
    },
    async count(workspaceId) {
      const [row] = await db.select({ n: count() }).from(destinations).where(ofWorkspace(workspaceId));
      return row?.n ?? 0;
    },
    async countOfType(workspaceId, type) {
      const [row] = await db.select({ n: count() }).from(destinations).where(and(ofWorkspace(workspaceId), eq(destinations.type, type)));
      return row?.n ?? 0;
    },
    async update(id, patch, now) {
      const [row] = await db
        .update(destinations)
        .set({ ...destinationColumns(patch), updatedAt: now })
        .where(and(eq(destinations.id, id), live))
        .returning();
      return row ? destinationRecord(row) : undefined;
    },
    async delete(id, now) {
      const rows = await db
        .update(destinations)
        .set({ deletedAt: now, updatedAt: now, enabled: false, sealedConfig: "{}" })
        .where(and(eq(destinations.id, id), live))
        .returning({ id: destinations.id });
      return rows.length > 0;
    },
    async enabledIn(workspaceId) {
      const rows = await db.select().from(destinations).where(and(live, eq(destinations.enabled, true), eq(destinations.workspaceId, workspaceId))).orderBy(...order);
      return rows.map(destinationRecord);
    },
  };
}
