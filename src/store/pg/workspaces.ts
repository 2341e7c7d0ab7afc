import { and, count, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { toNumber, type Conn } from "./client";
import { ascText, ascValue } from "./order";
import { apiKeys, byokCredentials, observabilityDestinations, workspaceMembers, workspaces, workspaceWebhookSecrets } from "./schema";
import type { WorkspacePatch, WorkspaceRecord, WorkspaceStore } from "../store";
import { rateLimitColumns, withRateLimit } from "../columns";

type Row = typeof workspaces.$inferSelect;

const toRecord = (row: Row): WorkspaceRecord => ({ ...withRateLimit(row), settings: JSON.parse(row.settings) as Record<string, unknown> });

export function pgWorkspaceStore({ db }: Conn): WorkspaceStore {
  /** keys that still authenticate: live, enabled and not expired */
  const activeKeysOf = (id: string, now: number) =>
    and(eq(apiKeys.workspaceId, id), isNull(apiKeys.deletedAt), eq(apiKeys.disabled, false), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
  return {
    async create(ws) {
      await db.insert(workspaces).values({ ...rateLimitColumns(ws), settings: JSON.stringify(ws.settings) });
      return ws;
    },
    async find(ref) {
      // an id wins over a slug that happens to look like one
      const rows = await db.select().from(workspaces).where(or(eq(workspaces.id, ref), eq(workspaces.slug, ref)));
      const row = rows.find((r) => r.id === ref) ?? rows[0];
      return row ? toRecord(row) : undefined;
    },
    async getDefault() {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.isDefault, true)).limit(1);
      return row ? toRecord(row) : undefined;
    },
    async list(offset, limit) {
      const rows = await db.select().from(workspaces).orderBy(ascValue(workspaces.createdAt), ascText(workspaces.id)).limit(limit).offset(offset);
      return rows.map(toRecord);
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(workspaces);
      return row?.n ?? 0;
    },
    async update(id, patch: WorkspacePatch, now) {
      const { settings, ...rest } = rateLimitColumns(patch);
      const values = { ...rest, updatedAt: now, ...(settings === undefined ? {} : { settings: JSON.stringify(settings) }) };
      const [row] = await db.update(workspaces).set(values).where(eq(workspaces.id, id)).returning();
      return row ? toRecord(row) : undefined;
    },
    async delete(id, now) {
      // one statement, so atomic: the workspace, its memberships and webhook secret, its BYOK credentials and observability destinations wiped
      const [row] = await db.execute<{ n: string }>(sql`
        with gone as (delete from ${workspaces} where ${workspaces.id} = ${id} returning id),
        members as (delete from ${workspaceMembers} where workspace_id in (select id from gone)),
        secrets as (delete from ${workspaceWebhookSecrets} where workspace_id in (select id from gone)),
        creds as (
          update ${byokCredentials} set deleted_at = ${now}::bigint, encrypted_key = '', disabled = true
          where workspace_id in (select id from gone) and deleted_at is null
        ),
        destinations as (
          update ${observabilityDestinations} set deleted_at = ${now}::bigint, updated_at = ${now}::bigint, enabled = false, sealed_config = '{}'
          where workspace_id in (select id from gone) and deleted_at is null
        )
        select count(*) as n from gone`);
      return toNumber(row?.n) > 0;
    },
    async countActiveKeys(id, now) {
      const [row] = await db.select({ n: count() }).from(apiKeys).where(activeKeysOf(id, now));
      return row?.n ?? 0;
    },
    async usersWithActiveKeys(id, userIds, now) {
      if (userIds.length === 0) return [];
      const rows = await db
        .selectDistinct({ user: apiKeys.creatorUserId })
        .from(apiKeys)
        .where(and(activeKeysOf(id, now), inArray(apiKeys.creatorUserId, userIds)));
      const found = new Set(rows.map((r) => r.user));
      return userIds.filter((u) => found.has(u));
    },
  };
}
