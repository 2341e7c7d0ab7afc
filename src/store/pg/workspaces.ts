import { and, count, eq, inArray, sql } from "drizzle-orm";
import { workspaceColumns, workspaceRecord, workspaceRow } from "../columns";
import { keyQueries } from "../queries/keys";
import { foundByRef, workspaceQueries } from "../queries/workspaces";
import type { WorkspaceStore } from "../store";
import { type Conn, toNumber } from "./client";
import { order } from "./order";
import { apiKeys, byokCredentials, observabilityDestinations, workspaceMembers, workspaces, workspaceWebhookSecrets } from "./schema";

export function pgWorkspaceStore({ db }: Conn): WorkspaceStore {
  const q = workspaceQueries(workspaces, order);
  const keys = keyQueries(apiKeys, order);
  return {
    async create(ws) {
      await db.insert(workspaces).values(workspaceRow(ws));
      return ws;
    },
    async find(ref) {
      const row = foundByRef(await db.select().from(workspaces).where(q.byRef(ref)), ref);
      return row ? workspaceRecord(row) : undefined;
    },
    async getDefault() {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.isDefault, true)).limit(1);
      return row ? workspaceRecord(row) : undefined;
    },
    async list(offset, limit) {
      const rows = await db
        .select()
        .from(workspaces)
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset);
      return rows.map(workspaceRecord);
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(workspaces);
      return row?.n ?? 0;
    },
    async update(id, patch, now) {
      const [row] = await db.update(workspaces).set(workspaceColumns(patch, now)).where(eq(workspaces.id, id)).returning();
      return row ? workspaceRecord(row) : undefined;
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
      const [row] = await db.select({ n: count() }).from(apiKeys).where(keys.activeIn(id, now));
      return row?.n ?? 0;
    },
    async usersWithActiveKeys(id, userIds, now) {
      if (userIds.length === 0) return [];
      const rows = await db
        .selectDistinct({ user: apiKeys.creatorUserId })
        .from(apiKeys)
        .where(and(keys.activeIn(id, now), inArray(apiKeys.creatorUserId, userIds)));
      const found = new Set(rows.map((r) => r.user));
      return userIds.filter((u) => found.has(u));
    },
  };
}
