/** The audit log's rows: the store keeps them in order and never computes a hash (src/audit/ does). */

export type AuditActorType = "user" | "key" | "scim" | "cli" | "system";

export type AuditEventRecord = {
  /** 1, 2, 3... in the order written */
  seq: number;
  createdAt: number;
  actorType: AuditActorType;
  actorId: string | null;
  actorLabel: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  workspaceId: string | null;
  ip: string | null;
  userAgent: string | null;
  /** JSON text of `{field: {from, to}}` */
  changes: string;
  prevHash: string;
  hash: string;
};

/**
 * What a listing keeps: each set field narrows it; `actions`: any of these (a kind of resource's
 * actions); `since` inclusive, `until` exclusive; `beforeSeq` is the keyset cursor.
 */
export type AuditFilter = {
  actorId?: string;
  action?: string;
  actions?: readonly string[];
  targetId?: string;
  since?: number;
  until?: number;
  beforeSeq?: number;
};

export interface AuditStore {
  /** the newest event */
  last(): Promise<AuditEventRecord | undefined>;
  /** call inside `transaction`, after reading `last()` there: the write lock keeps `seq` and the chain in order */
  append(event: AuditEventRecord): Promise<void>;
  /** newest first */
  list(filter: AuditFilter, limit: number): Promise<AuditEventRecord[]>;
  /** oldest first, events after `afterSeq` */
  inOrder(afterSeq: number, limit: number): Promise<AuditEventRecord[]>;
  /** deletes every event up to the newest one created before `before`: that one and how many went (undefined: none was) */
  purgeBefore(before: number): Promise<{ newest: AuditEventRecord; deleted: number } | undefined>;
}
