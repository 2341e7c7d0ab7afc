import { and, count, eq, inArray, sql } from "drizzle-orm";
import { applyingOf, guardrailPatchRow, guardrailRecord, guardrailRow } from "../guardrail-rows";
import type { GuardrailRecord, GuardrailStore, KeyAssignmentRecord, MemberAssignmentRecord } from "../guardrail-store";
import { guardrailQueries } from "../queries/guardrails";
import type { WorkspaceUsageRow } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import type { ReservationBook } from "./reservation-book";
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

export function sqliteGuardrailStore(db: Db, write: WriteStep, writer: SqliteWriter, book: ReservationBook): GuardrailStore {
  const q = guardrailQueries(guardrails, keyRows, memberRows, order);
  const get = (id: string) => {
    const row = db.select().from(guardrails).where(eq(guardrails.id, id)).get();
    return row ? guardrailRecord(row) : undefined;
  };
  const keyOf = db
    .select({ guardrailId: keyRows.guardrailId })
    .from(keyRows)
    .where(eq(keyRows.keyHash, sql.placeholder("hash")))
    .prepare();
  const memberOf = db
    .select({ guardrailId: memberRows.guardrailId })
    .from(memberRows)
    .where(and(eq(memberRows.workspaceId, sql.placeholder("workspace")), eq(memberRows.userId, sql.placeholder("user"))))
    .prepare();
  return {
    async list(workspaceId, offset, limit) {
      return db
        .select()
        .from(guardrails)
        .where(q.ofWorkspace(workspaceId))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset)
        .all()
        .map(guardrailRecord);
    },
    async count(workspaceId) {
      return db.select({ n: count() }).from(guardrails).where(q.ofWorkspace(workspaceId)).get()?.n ?? 0;
    },
    get: async (id) => get(id),
    create: (guardrail) => write(() => guardrailRecord(db.insert(guardrails).values(guardrailRow(guardrail)).returning().get())),
    update: (id, patch, now) =>
      write(() => {
        const row = db.update(guardrails).set(guardrailPatchRow(patch, now)).where(eq(guardrails.id, id)).returning().get();
        return row ? guardrailRecord(row) : undefined;
      }),
    delete: (id) =>
      write(() =>
        writer.atomic(() => {
          db.delete(keyRows).where(eq(keyRows.guardrailId, id)).run();
          db.delete(memberRows).where(eq(memberRows.guardrailId, id)).run();
          return db.delete(guardrails).where(eq(guardrails.id, id)).returning({ id: guardrails.id }).all().length > 0;
        }),
      ),
    assignKeys: (guardrailId, keyHashes, row) =>
      write(() =>
        writer.atomic(() => {
          let assigned = 0;
          for (const keyHash of new Set(keyHashes)) {
            const current = keyOf.get({ hash: keyHash });
            if (current?.guardrailId === guardrailId) continue;
            db.delete(keyRows).where(eq(keyRows.keyHash, keyHash)).run();
            db.insert(keyRows)
              .values({ ...row(keyHash), guardrailId, keyHash })
              .run();
            assigned++;
          }
          return assigned;
        }),
      ),
    unassignKeys: (guardrailId, keyHashes) =>
      write(() => (keyHashes.length === 0 ? 0 : db.delete(keyRows).where(q.keysIn(guardrailId, keyHashes)).returning({ id: keyRows.id }).all().length)),
    async keyAssignments(guardrailId, offset, limit) {
      return db
        .select(keyAssignmentColumns)
        .from(keyRows)
        .leftJoin(apiKeys, eq(apiKeys.hash, keyRows.keyHash))
        .where(q.keysOf(guardrailId))
        .orderBy(...q.keyOrder)
        .limit(limit)
        .offset(offset)
        .all() as KeyAssignmentRecord[];
    },
    async countKeyAssignments(guardrailId) {
      return db.select({ n: count() }).from(keyRows).where(q.keysOf(guardrailId)).get()?.n ?? 0;
    },
    assignMembers: (guardrail, userIds, row) =>
      write(() =>
        writer.atomic(() => {
          let assigned = 0;
          for (const userId of new Set(userIds)) {
            const current = memberOf.get({ workspace: guardrail.workspaceId, user: userId });
            if (current?.guardrailId === guardrail.id) continue;
            db.delete(memberRows)
              .where(and(eq(memberRows.workspaceId, guardrail.workspaceId), eq(memberRows.userId, userId)))
              .run();
            db.insert(memberRows)
              .values({ ...row(userId), guardrailId: guardrail.id, workspaceId: guardrail.workspaceId, userId })
              .run();
            assigned++;
          }
          return assigned;
        }),
      ),
    unassignMembers: (guardrailId, userIds) =>
      write(() => (userIds.length === 0 ? 0 : db.delete(memberRows).where(q.membersIn(guardrailId, userIds)).returning({ id: memberRows.id }).all().length)),
    async memberAssignments(guardrailId, offset, limit) {
      return db
        .select()
        .from(memberRows)
        .where(q.membersOf(guardrailId))
        .orderBy(...q.memberOrder)
        .limit(limit)
        .offset(offset)
        .all()
        .map(
          ({ id, guardrailId, workspaceId, userId, assignedBy, createdAt }): MemberAssignmentRecord => ({
            id,
            guardrailId,
            workspaceId,
            userId,
            assignedBy,
            createdAt,
          }),
        );
    },
    async countMemberAssignments(guardrailId) {
      return db.select({ n: count() }).from(memberRows).where(q.membersOf(guardrailId)).get()?.n ?? 0;
    },
    async applying(defaultId, key) {
      const keyGuardrail = keyOf.get({ hash: key.hash })?.guardrailId;
      const memberGuardrail = key.creatorUserId === null ? undefined : memberOf.get({ workspace: key.workspaceId, user: key.creatorUserId })?.guardrailId;
      const ids = [defaultId, memberGuardrail, keyGuardrail].filter((id): id is string => id !== undefined);
      const found = new Map<string, GuardrailRecord>(
        db
          .select()
          .from(guardrails)
          .where(inArray(guardrails.id, ids))
          .all()
          .map((row) => [row.id, guardrailRecord(row)]),
      );
      return applyingOf(found, defaultId, memberGuardrail, keyGuardrail);
    },
    async memberUsage(workspaceId, userId) {
      const row = db
        .select()
        .from(memberUsage)
        .where(and(eq(memberUsage.workspaceId, workspaceId), eq(memberUsage.userId, userId)))
        .get();
      if (!row) return undefined;
      const { held: _held, userId: _user, ...usage } = row;
      return usage satisfies WorkspaceUsageRow;
    },
    async memberHeld(workspaceId, userId) {
      return book.memberHeld(workspaceId, userId);
    },
  };
}
