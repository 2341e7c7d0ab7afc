import { and, asc, count, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { apiKeys, byokCredentials, observabilityDestinations, workspaceMembers, workspaces, workspaceWebhookSecrets } from "./schema";
import type { WorkspacePatch, WorkspaceRecord, WorkspaceStore } from "../store";
import { rateLimitColumns, withRateLimit } from "../columns";

type Row = typeof workspaces.$inferSelect;

const toRecord = (row: Row): WorkspaceRecord => ({ ...withRateLimit(row), settings: JSON.parse(row.settings) as Record<string, unknown> });

export function sqliteWorkspaceStore(db: Db, write: WriteStep, writer: SqliteWriter): WorkspaceStore {
  // prepared once: every authenticated request looks its workspace up
  const byRef = db.select().from(workspaces).where(or(eq(workspaces.id, sql.placeholder("ref")), eq(workspaces.slug, sql.placeholder("ref")))).prepare();
  /** keys that still authenticate: live, enabled and not expired */
  const activeKeysOf = (id: string, now: number) =>
    and(eq(apiKeys.workspaceId, id), isNull(apiKeys.deletedAt), eq(apiKeys.disabled, false), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
  return {
    create: (ws) =>
      write(() => {
        db.insert(workspaces).values({ ...rateLimitColumns(ws), settings: JSON.stringify(ws.settings) }).run();
        return ws;
      }),
    async find(ref) {
      // an id wins over a slug that happens to look like one
      const rows = byRef.all({ ref });
      const row = rows.find((r) => r.id === ref) ?? rows[0];
      return row ? toRecord(row) : undefined;
    },
    async getDefault() {
      const row = db.select().from(workspaces).where(eq(workspaces.isDefault, true)).get();
      return row ? toRecord(row) : undefined;
    },
    async list(offset, limit) {
      return db.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id)).limit(limit).offset(offset).all().map(toRecord);
    },
    async count() {
      return db.select({ n: count() }).from(workspaces).get()?.n ?? 0;
    },
    update: (id, patch: WorkspacePatch, now) =>
      write(() => {
        const { settings, ...rest } = rateLimitColumns(patch);
        const values = { ...rest, updatedAt: now, ...(settings === undefined ? {} : { settings: JSON.stringify(settings) }) };
        const row = db.update(workspaces).set(values).where(eq(workspaces.id, id)).returning().get();
        return row ? toRecord(row) : undefined;
      }),
    delete: (id, now) =>
      write(() =>
        writer.atomic(() => {
          const row = db.delete(workspaces).where(eq(workspaces.id, id)).returning().get();
          if (!row) return false;
          db.delete(workspaceMembers).where(eq(workspaceMembers.workspaceId, id)).run();
          db.delete(workspaceWebhookSecrets).where(eq(workspaceWebhookSecrets.workspaceId, id)).run();
          db.update(byokCredentials)
            .set({ deletedAt: now, encryptedKey: "", disabled: true })
            .where(and(eq(byokCredentials.workspaceId, id), isNull(byokCredentials.deletedAt)))
            .run();
          db.update(observabilityDestinations)
            .set({ deletedAt: now, updatedAt: now, enabled: false, sealedConfig: "{}" })
            .where(and(eq(observabilityDestinations.workspaceId, id), isNull(observabilityDestinations.deletedAt)))
            .run();
          return true;
        }),
      ),
    async countActiveKeys(id, now) {
      return db.select({ n: count() }).from(apiKeys).where(activeKeysOf(id, now)).get()?.n ?? 0;
    },
    async usersWithActiveKeys(id, userIds, now) {
      if (userIds.length === 0) return [];
      const rows = db
        .selectDistinct({ user: apiKeys.creatorUserId })
        .from(apiKeys)
        .where(and(activeKeysOf(id, now), inArray(apiKeys.creatorUserId, userIds)))
        .all();
      const found = new Set(rows.map((r) => r.user));
      return userIds.filter((u) => found.has(u));
    },
  };
}
