import { and, asc, eq, inArray } from "drizzle-orm";
import type { ScimGroupStore, ScimMappingStore, ScimSyncJobRecord } from "../scim-group-store";
import type { Conn } from "./client";
import { scimGroupMappings, scimGroupMembers, scimGroups, scimManagedMembers, scimSyncJobs } from "./schema";

export function pgScimGroupStore({ db }: Conn): ScimGroupStore {
  return {
    async create(group) {
      await db.insert(scimGroups).values(group);
      return group;
    },
    async get(id) {
      const [row] = await db.select().from(scimGroups).where(eq(scimGroups.id, id));
      return row;
    },
    async list() {
      return db.select().from(scimGroups).orderBy(asc(scimGroups.createdAt), asc(scimGroups.id));
    },
    async update(id, patch) {
      const [row] = await db.update(scimGroups).set(patch).where(eq(scimGroups.id, id)).returning();
      return row;
    },
    async delete(id) {
      await db.delete(scimGroupMembers).where(eq(scimGroupMembers.groupId, id));
      const [row] = await db.delete(scimGroups).where(eq(scimGroups.id, id)).returning();
      return row;
    },
    async members(groupId) {
      const rows = await db
        .select({ userId: scimGroupMembers.userId })
        .from(scimGroupMembers)
        .where(eq(scimGroupMembers.groupId, groupId))
        .orderBy(asc(scimGroupMembers.userId));
      return rows.map((r) => r.userId);
    },
    async addMembers(groupId, userIds) {
      if (userIds.length === 0) return [];
      const rows = [...new Set(userIds)].map((userId) => ({ groupId, userId }));
      const added = await db.insert(scimGroupMembers).values(rows).onConflictDoNothing().returning({ userId: scimGroupMembers.userId });
      return added.map((r) => r.userId);
    },
    async removeMembers(groupId, userIds) {
      if (userIds.length === 0) return [];
      const removed = await db
        .delete(scimGroupMembers)
        .where(and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.userId, [...userIds])))
        .returning({ userId: scimGroupMembers.userId });
      return removed.map((r) => r.userId);
    },
    async groupsOf(userId) {
      const rows = await db
        .select({ group: scimGroups })
        .from(scimGroupMembers)
        .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
        .where(eq(scimGroupMembers.userId, userId))
        .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id));
      return rows.map((r) => r.group);
    },
    async removeUser(userId) {
      return (await db.delete(scimGroupMembers).where(eq(scimGroupMembers.userId, userId)).returning()).length;
    },
  };
}

export function pgScimMappingStore({ db }: Conn): ScimMappingStore {
  return {
    async create(mapping) {
      await db.insert(scimGroupMappings).values(mapping);
      return mapping;
    },
    async get(id) {
      const [row] = await db.select().from(scimGroupMappings).where(eq(scimGroupMappings.id, id));
      return row;
    },
    async find(groupId, workspaceId) {
      const [row] = await db
        .select()
        .from(scimGroupMappings)
        .where(and(eq(scimGroupMappings.groupId, groupId), eq(scimGroupMappings.workspaceId, workspaceId)));
      return row;
    },
    async list() {
      return db.select().from(scimGroupMappings).orderBy(asc(scimGroupMappings.createdAt), asc(scimGroupMappings.id));
    },
    async update(id, patch) {
      const [row] = await db.update(scimGroupMappings).set(patch).where(eq(scimGroupMappings.id, id)).returning();
      return row;
    },
    async delete(id) {
      const [row] = await db.delete(scimGroupMappings).where(eq(scimGroupMappings.id, id)).returning();
      return row;
    },
    async managedWorkspacesOf(userId) {
      const rows = await db.select({ workspaceId: scimManagedMembers.workspaceId }).from(scimManagedMembers).where(eq(scimManagedMembers.userId, userId));
      return rows.map((r) => r.workspaceId);
    },
    async markManaged(workspaceId, userId) {
      await db.insert(scimManagedMembers).values({ workspaceId, userId }).onConflictDoNothing();
    },
    async unmarkManaged(workspaceId, userId) {
      await db.delete(scimManagedMembers).where(and(eq(scimManagedMembers.workspaceId, workspaceId), eq(scimManagedMembers.userId, userId)));
    },
    async createJob(job) {
      await db.insert(scimSyncJobs).values(job);
      return job;
    },
    async getJob(id) {
      const [row] = await db.select().from(scimSyncJobs).where(eq(scimSyncJobs.id, id));
      return row as ScimSyncJobRecord | undefined;
    },
    async updateJob(id, patch) {
      await db.update(scimSyncJobs).set(patch).where(eq(scimSyncJobs.id, id));
    },
  };
}
