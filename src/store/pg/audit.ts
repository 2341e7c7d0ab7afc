import { asc, desc, gt, lt, lte } from "drizzle-orm";
import type { AuditEventRecord, AuditStore } from "../audit-store";
import { auditFilter } from "../queries/audit";
import type { Conn } from "./client";
import { auditEvents } from "./schema";

export function pgAuditStore({ db }: Conn): AuditStore {
  return {
    async last() {
      const [row] = await db.select().from(auditEvents).orderBy(desc(auditEvents.seq)).limit(1);
      return row as AuditEventRecord | undefined;
    },
    async append(event) {
      await db.insert(auditEvents).values(event);
    },
    async list(filter, limit) {
      return (await db.select().from(auditEvents).where(auditFilter(auditEvents, filter)).orderBy(desc(auditEvents.seq)).limit(limit)) as AuditEventRecord[];
    },
    async inOrder(afterSeq, limit) {
      return (await db.select().from(auditEvents).where(gt(auditEvents.seq, afterSeq)).orderBy(asc(auditEvents.seq)).limit(limit)) as AuditEventRecord[];
    },
    async purgeBefore(before) {
      const [newest] = await db.select().from(auditEvents).where(lt(auditEvents.createdAt, before)).orderBy(desc(auditEvents.seq)).limit(1);
      if (!newest) return undefined;
      const deleted = await db.delete(auditEvents).where(lte(auditEvents.seq, newest.seq)).returning({ seq: auditEvents.seq });
      return { newest: newest as AuditEventRecord, deleted: deleted.length };
    },
  };
}
