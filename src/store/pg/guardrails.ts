import { and, count, eq, inArray, sql } from "drizzle-orm";
import { applyingOf, guardrailPatchRow, guardrailRecord, guardrailRow } from "../guardrail-rows";
import type { GuardrailRecord, GuardrailStore, KeyAssignmentRecord, MemberAssignmentRecord } from "../guardrail-store";
import { guardrailQueries } from "../queries/guardrails";
import { type Conn, lockedTransaction } from "./client";
import { order } from "./order";
import { apiKeys, guardrails, guardrailKeyAssignments as keyRows, guardrailMemberAssignments as memberRows, memberUsage } from "./schema";

const keyAssignmentColumns = {
  id: keyRows.id,
  guardrailId: keyRows.guardrailId,
  keyHash: keyRows.keyHash,
  keyName: sql<string>`coalesce(${apiKeys.name}, '')`,
  keyLabel: sql<string>`coalesce(${apiKeys.label}, '')`,
  assignedBy: keyRows.assignedBy,
  createdAt: keyRows.createdAt,
};

const memberRecord = ({ seq: _seq, ...row }: typeof memberRows.$inferSelect): MemberAssignmentRecord => row;

export function pgGuardrailStore(conn: Conn): GuardrailStore {
  const { db } = conn;
  const q = guardrailQueries(guardrails, keyRows, memberRows, order);
  return {
    async list(workspaceId, offset, limit) {
      const rows = await db
        .select()
        .from(guardrails)
        .where(q.ofWorkspace(workspaceId))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset);
      return rows.map(guardrailRecord);
    },
    async count(workspaceId) {
      const [row] = await db.select({ n: count() }).from(guardrails).where(q.ofWorkspace(workspaceId));
      return row?.n ?? 0;
    },
    async get(id) {
      const [row] = await db.select().from(guardrails).where(eq(guardrails.id, id));
      return row ? guardrailRecord(row) : undefined;
    },
    async create(guardrail) {
      const [row] = await db.insert(guardrails).values(guardrailRow(guardrail)).returning();
      return guardrailRecord(row!);
    },
    async update(id, patch, now) {
      const [row] = await db.update(guardrails).set(guardrailPatchRow(patch, now)).where(eq(guardrails.id, id)).returning();
      return row ? guardrailRecord(row) : undefined;
    },
    delete: (id) =>
      lockedTransaction(conn, async (tx) => {
        await tx.delete(keyRows).where(eq(keyRows.guardrailId, id));
        await tx.delete(memberRows).where(eq(memberRows.guardrailId, id));
        const gone = await tx.delete(guardrails).where(eq(guardrails.id, id)).returning({ id: guardrails.id });
        return gone.length > 0;
      }),
    assignKeys: (guardrailId, keyHashes, row) =>
      lockedTransaction(conn, async (tx) => {
        const wanted = [...new Set(keyHashes)];
        if (wanted.length === 0) return 0;
        const kept = await tx.select({ keyHash: keyRows.keyHash }).from(keyRows).where(q.keysIn(guardrailId, wanted));
        const already = new Set(kept.map((k) => k.keyHash));
        const moving = wanted.filter((h) => !already.has(h));
        if (moving.length === 0) return 0;
        await tx.delete(keyRows).where(inArray(keyRows.keyHash, moving));
        await tx.insert(keyRows).values(moving.map((keyHash) => ({ ...row(keyHash), guardrailId, keyHash })));
        return moving.length;
      }),
    async unassignKeys(guardrailId, keyHashes) {
      if (keyHashes.length === 0) return 0;
      const gone = await db.delete(keyRows).where(q.keysIn(guardrailId, keyHashes)).returning({ id: keyRows.id });
      return gone.length;
    },
    async keyAssignments(guardrailId, offset, limit) {
      return (await db
        .select(keyAssignmentColumns)
        .from(keyRows)
        .leftJoin(apiKeys, eq(apiKeys.hash, keyRows.keyHash))
        .where(q.keysOf(guardrailId))
        .orderBy(...q.keyOrder)
        .limit(limit)
        .offset(offset)) as KeyAssignmentRecord[];
    },
    async countKeyAssignments(guardrailId) {
      const [row] = await db.select({ n: count() }).from(keyRows).where(q.keysOf(guardrailId));
      return row?.n ?? 0;
    },
    assignMembers: (guardrail, userIds, row) =>
      lockedTransaction(conn, async (tx) => {
        const wanted = [...new Set(userIds)];
        if (wanted.length === 0) return 0;
        const kept = await tx.select({ userId: memberRows.userId }).from(memberRows).where(q.membersIn(guardrail.id, wanted));
        const already = new Set(kept.map((m) => m.userId));
        const moving = wanted.filter((u) => !already.has(u));
        if (moving.length === 0) return 0;
        await tx.delete(memberRows).where(and(eq(memberRows.workspaceId, guardrail.workspaceId), inArray(memberRows.userId, moving)));
        await tx.insert(memberRows).values(moving.map((userId) => ({ ...row(userId), guardrailId: guardrail.id, workspaceId: guardrail.workspaceId, userId })));
        return moving.length;
      }),
    async unassignMembers(guardrailId, userIds) {
      if (userIds.length === 0) return 0;
      const gone = await db.delete(memberRows).where(q.membersIn(guardrailId, userIds)).returning({ id: memberRows.id });
      return gone.length;
    },
    async memberAssignments(guardrailId, offset, limit) {
      const rows = await db
        .select()
        .from(memberRows)
        .where(q.membersOf(guardrailId))
        .orderBy(...q.memberOrder)
        .limit(limit)
        .offset(offset);
      return rows.map(memberRecord);
    },
    async countMemberAssignments(guardrailId) {
      const [row] = await db.select({ n: count() }).from(memberRows).where(q.membersOf(guardrailId));
      return row?.n ?? 0;
    },
    async applying(defaultId, key) {
      // one round trip: the default, the key's and the member's guardrail, each found by its own subquery
      const keyGuardrail = db.select({ id: keyRows.guardrailId }).from(keyRows).where(eq(keyRows.keyHash, key.hash));
      const memberGuardrail = db
        .select({ id: memberRows.guardrailId })
        .from(memberRows)
        .where(and(eq(memberRows.workspaceId, key.workspaceId), eq(memberRows.userId, key.creatorUserId ?? "")));
      const rows = await db
        .select({
          row: guardrails,
          viaKey: sql<boolean>`${guardrails.id} in (${keyGuardrail})`,
          viaMember: sql<boolean>`${guardrails.id} in (${memberGuardrail})`,
        })
        .from(guardrails)
        .where(sql`${guardrails.id} = ${defaultId} or ${guardrails.id} in (${keyGuardrail}) or ${guardrails.id} in (${memberGuardrail})`);
      const found = new Map<string, GuardrailRecord>(rows.map((r) => [r.row.id, guardrailRecord(r.row)]));
      const memberId = rows.find((r) => r.viaMember)?.row.id;
      const keyId = rows.find((r) => r.viaKey)?.row.id;
      return applyingOf(found, defaultId, memberId, keyId);
    },
    async memberUsage(workspaceId, userId) {
      const [row] = await db
        .select()
        .from(memberUsage)
        .where(and(eq(memberUsage.workspaceId, workspaceId), eq(memberUsage.userId, userId)));
      if (!row) return undefined;
      const { held: _held, userId: _user, ...usage } = row;
      return usage;
    },
    async memberHeld(workspaceId, userId) {
      const [row] = await db
        .select({ held: memberUsage.held })
        .from(memberUsage)
        .where(and(eq(memberUsage.workspaceId, workspaceId), eq(memberUsage.userId, userId)));
      return row?.held ?? 0;
    },
  };
}
