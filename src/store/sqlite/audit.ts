import { asc, desc, gt, lt, lte } from "drizzle-orm";
import type { AuditEventRecord, AuditStore } from "../audit-store";
import { auditFilter } from "../queries/audit";
import type { Db, WriteStep } from "./client";
import { auditEvents } from "./schema";

export function sqliteAuditStore(db: Db, write: WriteStep): AuditStore {
  return {
    async last() {
      return db.select().from(auditEvents).orderBy(desc(auditEvents.seq)).limit(1).get() as AuditEventRecord | undefined;
    },
    append: (event) => write(() => void db.insert(auditEvents).values(event).run()),
    async list(filter, limit) {
      return db.select().from(auditEvents).where(auditFilter(auditEvents, filter)).orderBy(desc(auditEvents.seq)).limit(limit).all() as AuditEventRecord[];
    },
    async inOrder(afterSeq, limit) {
      return db.select().from(auditEvents).where(gt(auditEvents.seq, afterSeq)).orderBy(asc(auditEvents.seq)).limit(limit).all() as AuditEventRecord[];
    },
    purgeBefore: (before) =>
      write(() => {
        const newest = db.select().from(auditEvents).where(lt(auditEvents.createdAt, before)).orderBy(desc(auditEvents.seq)).limit(1).get();
        if (!newest) return undefined;
        const deleted = db.delete(auditEvents).where(lte(auditEvents.seq, newest.seq)).returning({ seq: auditEvents.seq }).all().length;
        return { newest: newest as AuditEventRecord, deleted };
      }),
  };
}
