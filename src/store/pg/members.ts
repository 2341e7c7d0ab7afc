import { count, eq, sql } from "drizzle-orm";
import { memberQueries } from "../queries/members";
import type { WorkspaceMemberRecord, WorkspaceMemberStore } from "../store";
import type { Conn } from "./client";
import { order } from "./order";
import { workspaceMembers } from "./schema";

type Row = typeof workspaceMembers.$inferSelect;

const toRecord = ({ seq: _seq, ...row }: Row): WorkspaceMemberRecord => row;
const pair = (m: { workspaceId: string; userId: string }) => `${m.workspaceId}\u0000${m.userId}`;

export function pgMemberStore({ db }: Conn): WorkspaceMemberStore {
  const q = memberQueries(workspaceMembers, order);
  // an existing membership keeps its id, creation time and place in the list; only the role follows
  const upsert = (rows: WorkspaceMemberRecord[]) =>
    db
      .insert(workspaceMembers)
      .values(rows)
      .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: sql`excluded.role` } })
      .returning();
  return {
    async list(workspaceId, offset, limit) {
      const rows = await db
        .select()
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, workspaceId))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset);
      return rows.map(toRecord);
    },
    async ofUser(userId) {
      const rows = await db
        .select()
        .from(workspaceMembers)
        .where(eq(workspaceMembers.userId, userId))
        .orderBy(...q.order);
      return rows.map(toRecord);
    },
    async count(workspaceId) {
      const [row] = await db.select({ n: count() }).from(workspaceMembers).where(eq(workspaceMembers.workspaceId, workspaceId));
      return row?.n ?? 0;
    },
    async get(workspaceId, userId) {
      const [row] = await db.select().from(workspaceMembers).where(q.membership(workspaceId, userId));
      return row ? toRecord(row) : undefined;
    },
    async upsert(members) {
      if (members.length === 0) return [];
      const distinct = new Set(members.map(pair)).size === members.length;
      if (distinct) {
        // one statement; RETURNING gives no order, so the rows are matched back by user
        const stored = new Map((await upsert(members)).map((r) => [pair(r), toRecord(r)]));
        return members.map((m) => stored.get(pair(m))!);
      }
      // one membership twice: a single statement may not touch a row twice, so one at a time
      return db.transaction(async (tx) => {
        const out: WorkspaceMemberRecord[] = [];
        for (const m of members) {
          const [row] = await tx
            .insert(workspaceMembers)
            .values(m)
            .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: m.role } })
            .returning();
          out.push(toRecord(row!));
        }
        return out;
      });
    },
    async remove(workspaceId, userIds) {
      if (userIds.length === 0) return 0;
      const rows = await db.delete(workspaceMembers).where(q.members(workspaceId, userIds)).returning({ id: workspaceMembers.id });
      return rows.length;
    },
    async removeUser(userId) {
      const rows = await db.delete(workspaceMembers).where(eq(workspaceMembers.userId, userId)).returning({ id: workspaceMembers.id });
      return rows.length;
    },
  };
}
