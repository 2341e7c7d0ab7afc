import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { workspaceColumns, workspaceRecord, workspaceRow } from "../columns";
import { wipedCredential } from "../queries/byok";
import { retiredDestination } from "../queries/destinations";
import { keyQueries } from "../queries/keys";
import { foundByRef, workspaceQueries } from "../queries/workspaces";
import type { WorkspaceStore } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import { apiKeys, byokCredentials, observabilityDestinations, workspaceMembers, workspaces, workspaceWebhookSecrets } from "./schema";

export function sqliteWorkspaceStore(db: Db, write: WriteStep, writer: SqliteWriter): WorkspaceStore {
  const q = workspaceQueries(workspaces, order);
  const keys = keyQueries(apiKeys, order);
  // prepared once: every authenticated request looks its workspace up
  const byRef = db
    .select()
    .from(workspaces)
    .where(q.byRef(sql.placeholder("ref")))
    .prepare();
  return {
    create: (ws) =>
      write(() => {
        db.insert(workspaces).values(workspaceRow(ws)).run();
        return ws;
      }),
    async find(ref) {
      const row = foundByRef(byRef.all({ ref }), ref);
      return row ? workspaceRecord(row) : undefined;
    },
    async getDefault() {
      const row = db.select().from(workspaces).where(eq(workspaces.isDefault, true)).get();
      return row ? workspaceRecord(row) : undefined;
    },
    async list(offset, limit) {
      return db
        .select()
        .from(workspaces)
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset)
        .all()
        .map(workspaceRecord);
    },
    async count() {
      return db.select({ n: count() }).from(workspaces).get()?.n ?? 0;
    },
    update: (id, patch, now) =>
      write(() => {
        const row = db.update(workspaces).set(workspaceColumns(patch, now)).where(eq(workspaces.id, id)).returning().get();
        return row ? workspaceRecord(row) : undefined;
      }),
    delete: (id, now) =>
      write(() =>
        writer.atomic(() => {
          const row = db.delete(workspaces).where(eq(workspaces.id, id)).returning().get();
          if (!row) return false;
          db.delete(workspaceMembers).where(eq(workspaceMembers.workspaceId, id)).run();
          db.delete(workspaceWebhookSecrets).where(eq(workspaceWebhookSecrets.workspaceId, id)).run();
          db.update(byokCredentials)
            .set(wipedCredential(now))
            .where(and(eq(byokCredentials.workspaceId, id), isNull(byokCredentials.deletedAt)))
            .run();
          db.update(observabilityDestinations)
            .set(retiredDestination(now))
            .where(and(eq(observabilityDestinations.workspaceId, id), isNull(observabilityDestinations.deletedAt)))
            .run();
          return true;
        }),
      ),
    async countActiveKeys(id, now) {
      return db.select({ n: count() }).from(apiKeys).where(keys.activeIn(id, now)).get()?.n ?? 0;
    },
    async usersWithActiveKeys(id, userIds, now) {
      if (userIds.length === 0) return [];
      const rows = db
        .selectDistinct({ user: apiKeys.creatorUserId })
        .from(apiKeys)
        .where(and(keys.activeIn(id, now), inArray(apiKeys.creatorUserId, userIds)))
        .all();
      const found = new Set(rows.map((r) => r.user));
      return userIds.filter((u) => found.has(u));
    },
  };
}
