import { count, eq } from "drizzle-orm";
import { memberQueries } from "../queries/members";
import type { WorkspaceMemberRecord, WorkspaceMemberStore } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import { workspaceMembers } from "./schema";

export function sqliteMemberStore(db: Db, write: WriteStep, writer: SqliteWriter): WorkspaceMemberStore {
  const q = memberQueries(workspaceMembers, order);
  const get = (workspaceId: string, userId: string) =>
    db.select().from(workspaceMembers).where(q.membership(workspaceId, userId)).get() as WorkspaceMemberRecord | undefined;
  return {
    async list(workspaceId, offset, limit) {
      return db
        .select()
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, workspaceId))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset)
        .all() as WorkspaceMemberRecord[];
    },
    async count(workspaceId) {
      return db.select({ n: count() }).from(workspaceMembers).where(eq(workspaceMembers.workspaceId, workspaceId)).get()?.n ?? 0;
    },
    get: async (workspaceId, userId) => get(workspaceId, userId),
    async ofUser(userId) {
      return db
        .select()
        .from(workspaceMembers)
        .where(eq(workspaceMembers.userId, userId))
        .orderBy(...q.order)
        .all() as WorkspaceMemberRecord[];
    },
    upsert: (members) =>
      write(() =>
        writer.atomic(() =>
          members.map((m) => {
            // an existing membership keeps its id and creation time; only the role follows the user
            db.insert(workspaceMembers)
              .values(m)
              .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: m.role } })
              .run();
            return get(m.workspaceId, m.userId)!;
          }),
        ),
      ),
    remove: (workspaceId, userIds) =>
      write(() => {
        if (userIds.length === 0) return 0;
        return db.delete(workspaceMembers).where(q.members(workspaceId, userIds)).returning({ id: workspaceMembers.id }).all().length;
      }),
    removeUser: (userId) =>
      write(() => db.delete(workspaceMembers).where(eq(workspaceMembers.userId, userId)).returning({ id: workspaceMembers.id }).all().length),
  };
}
