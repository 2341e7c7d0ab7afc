import type { AuditEventRecord, Store, StoreTables } from "../store/store";
import type { AuditAction } from "./actions";
import { chainLink, eventHash, GENESIS_HASH, HEAD_KEY, parseLink } from "./chain";
import type { FieldChanges } from "./changes";
import type { ChangeOrigin } from "./origin";

/** What a service says it changed. `target.id` null: the thing has no id (a failed sign-in's unknown account). */
export type AuditedChange = {
  action: AuditAction;
  target: { type: string; id: string | null };
  workspaceId?: string | null;
  changes?: FieldChanges;
};

/** The store tables an event is written to: those of the change's own transaction. */
export type AuditTables = Pick<StoreTables, "audit" | "meta">;

/**
 * Appends the event of a change, chained to the newest one. Call it with the `tx` of the
 * transaction that makes the change (DESIGN.md: the event commits or rolls back with it); the
 * transaction's write lock keeps the numbers and the chain in order across threads and instances.
 */
export async function recordChange(tx: AuditTables, now: number, origin: ChangeOrigin, change: AuditedChange): Promise<AuditEventRecord> {
  // the head in meta, not the newest row: after a purge of every row the chain still goes on from it
  const head = parseLink(await tx.meta.get(HEAD_KEY)) ?? (await tx.audit.last());
  const body: Omit<AuditEventRecord, "prevHash" | "hash"> = {
    seq: (head?.seq ?? 0) + 1,
    createdAt: now,
    actorType: origin.actor.type,
    actorId: origin.actor.id,
    actorLabel: origin.actor.label,
    action: change.action,
    targetType: change.target.type,
    targetId: change.target.id,
    workspaceId: change.workspaceId ?? null,
    ip: origin.ip,
    userAgent: origin.userAgent,
    changes: JSON.stringify(change.changes ?? {}),
  };
  const prevHash = head?.hash ?? GENESIS_HASH;
  const event: AuditEventRecord = { ...body, prevHash, hash: eventHash(prevHash, body) };
  await tx.audit.append(event);
  await tx.meta.set(HEAD_KEY, JSON.stringify(chainLink(event)));
  return event;
}

/** An event that is a change of its own (a sign-in, a sign-out): written in a transaction of its own. */
export function recordEvent(store: Pick<Store, "transaction">, now: number, origin: ChangeOrigin, change: AuditedChange): Promise<AuditEventRecord> {
  return store.transaction((tx) => recordChange(tx, now, origin, change));
}
