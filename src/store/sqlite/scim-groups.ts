import { and, asc, eq, inArray } from "drizzle-orm";
import type { ScimGroupMappingRecord, ScimGroupRecord, ScimGroupStore, ScimMappingStore, ScimSyncJobRecord } from "../scim-group-store";
import type { Db, WriteStep } from "./client";
import { scimGroupMappings, scimGroupMembers, scimGroups, scimManagedMembers, scimSyncJobs } from "./schema";

export function sqliteScimGroupStore(db: Db, write: WriteStep): ScimGroupStore {
  const members = (groupId: string) =>
    db
      .select({ userId: scimGroupMembers.userId })
      .from(scimGroupMembers)
      .where(eq(scimGroupMembers.groupId, groupId))
      .orderBy(asc(scimGroupMembers.userId))
      .all()
      .map((r) => r.userId);
  return {
    create: (group) =>
      write(() => {
        db.insert(scimGroups).values(group).run();
        return group;
      }),
    async get(id) {
      return db.select().from(scimGroups).where(eq(scimGroups.id, id)).get();
    },
    async list() {
      return db.select().from(scimGroups).orderBy(asc(scimGroups.createdAt), asc(scimGroups.id)).all();
    },
    update: (id, patch) => write(() => db.update(scimGroups).set(patch).where(eq(scimGroups.id, id)).returning().get() as ScimGroupRecord | undefined),
    delete: (id) =>
      write(() => {
        db.delete(scimGroupMembers).where(eq(scimGroupMembers.groupId, id)).run();
        return db.delete(scimGroups).where(eq(scimGroups.id, id)).returning().get() as ScimGroupRecord | undefined;
      }),
    async members(groupId) {
      return members(groupId);
    },
    addMembers: (groupId, userIds) =>
      write(() => {
        if (userIds.length === 0) return [];
        const rows = [...new Set(userIds)].map((userId) => ({ groupId, userId }));
        return db
          .insert(scimGroupMembers)
          .values(rows)
          .onConflictDoNothing()
          .returning({ userId: scimGroupMembers.userId })
          .all()
          .map((r) => r.userId);
      }),
    removeMembers: (groupId, userIds) =>
      write(() => {
        if (userIds.length === 0) return [];
        return db
          .delete(scimGroupMembers)
          .where(and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.userId, [...userIds])))
          .returning({ userId: scimGroupMembers.userId })
          .all()
          .map((r) => r.userId);
      }),
    async groupsOf(userId) {
      return db
        .select({ group: scimGroups })
        .from(scimGroupMembers)
        .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
        .where(eq(scimGroupMembers.userId, userId))
        .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id))
        .all()
        .map((r) => r.group);
    },
    removeUser: (userId) => write(() => db.delete(scimGroupMembers).where(eq(scimGroupMembers.userId, userId)).returning().all().length),
  };
}

export function sqliteScimMappingStore(db: Db, write: WriteStep): ScimMappingStore {
  return {
    create: (mapping) =>
      write(() => {
        db.insert(scimGroupMappings).values(mapping).run();
        return mapping;
      }),
    async get(id) {
      return db.select().from(scimGroupMappings).where(eq(scimGroupMappings.id, id)).get();
    },
    async find(groupId, workspaceId) {
      return db
        .select()
        .from(scimGroupMappings)
        .where(and(eq(scimGroupMappings.groupId, groupId), eq(scimGroupMappings.workspaceId, workspaceId)))
        .get();
    },
    async list() {
      return db.select().from(scimGroupMappings).orderBy(asc(scimGroupMappings.createdAt), asc(scimGroupMappings.id)).all();
    },
    update: (id, patch) =>
      write(() => db.update(scimGroupMappings).set(patch).where(eq(scimGroupMappings.id, id)).returning().get() as ScimGroupMappingRecord | undefined),
    delete: (id) => write(() => db.delete(scimGroupMappings).where(eq(scimGroupMappings.id, id)).returning().get() as ScimGroupMappingRecord | undefined),
    async managedWorkspacesOf(userId) {
      return db
        .select({ workspaceId: scimManagedMembers.workspaceId })
        .from(scimManagedMembers)
        .where(eq(scimManagedMembers.userId, userId))
        .all()
        .map((r) => r.workspaceId);
    },
    markManaged: (workspaceId, userId) => write(() => void db.insert(scimManagedMembers).values({ workspaceId, userId }).onConflictDoNothing().run()),
    unmarkManaged: (workspaceId, userId) =>
      write(
        () =>
          void db
            .delete(scimManagedMembers)
            .where(and(eq(scimManagedMembers.workspaceId, workspaceId), eq(scimManagedMembers.userId, userId)))
            .run(),
      ),
    createJob: (job) =>
      write(() => {
        db.insert(scimSyncJobs).values(job).run();
        return job;
      }),
    async getJob(id) {
      return db.select().from(scimSyncJobs).where(eq(scimSyncJobs.id, id)).get() as ScimSyncJobRecord | undefined;
    },
    updateJob: (id, patch) => write(() => void db.update(scimSyncJobs).set(patch).where(eq(scimSyncJobs.id, id)).run()),
  };
}
