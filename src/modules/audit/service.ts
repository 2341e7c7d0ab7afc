import { verifyChain } from "../../audit/verify";
import { badRequest } from "../../errors";
import type { AuditEventRecord, AuditFilter, Store } from "../../store/store";
import { isoTime, parseUtcDateTime } from "../../time";
import type { AuditEventOut, ListAuditLogsInput, VerifyAuditLogOut } from "./model";

export function renderAuditEvent(e: AuditEventRecord): AuditEventOut {
  return {
    id: String(e.seq),
    created_at: isoTime(e.createdAt),
    actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
    action: e.action,
    target: { type: e.targetType, id: e.targetId },
    workspace_id: e.workspaceId,
    ip: e.ip,
    user_agent: e.userAgent,
    changes: JSON.parse(e.changes),
    hash: e.hash,
  };
}

/** A `since` or `until` query parameter as milliseconds: 400 naming it when it is not a UTC date-time with seconds. */
export function timeParam(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseUtcDateTime(value);
  if (ms === undefined)
    throw badRequest(`Invalid query parameter '${field}': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z`, { field });
  return ms;
}

/** A page of event records, newest first, and the cursor of the next (null: no more); the API and the console page alike. */
export async function auditPage(
  store: Pick<Store, "audit">,
  filter: AuditFilter,
  limit: number,
): Promise<{ rows: AuditEventRecord[]; next_cursor: string | null }> {
  // one more than the page: whether another page follows, without a second query
  const rows = await store.audit.list(filter, limit + 1);
  const page = rows.slice(0, limit);
  return { rows: page, next_cursor: rows.length > limit ? String(page.at(-1)!.seq) : null };
}

/** A page of events, newest first; `next_cursor` continues after its last event (null: no more). */
export async function listAuditEvents(store: Pick<Store, "audit">, query: ListAuditLogsInput): Promise<{ data: AuditEventOut[]; next_cursor: string | null }> {
  const filter: AuditFilter = {
    actorId: query.actor_id,
    action: query.action,
    targetId: query.target_id,
    since: timeParam(query.since, "since"),
    until: timeParam(query.until, "until"),
    beforeSeq: query.cursor === undefined ? undefined : Number(query.cursor),
  };
  const { rows, next_cursor } = await auditPage(store, filter, query.limit ?? 50);
  return { data: rows.map(renderAuditEvent), next_cursor };
}

/** The chain checked from the oldest kept event to the newest (src/audit/verify.ts), as the API and the console show it. */
export async function verifyAuditLog(store: Pick<Store, "audit" | "meta">): Promise<VerifyAuditLogOut> {
  const verdict = await verifyChain(store);
  if (verdict.ok)
    return {
      ok: true,
      events: verdict.events,
      first_id: verdict.first?.toString() ?? null,
      last_id: verdict.last?.toString() ?? null,
      broken_id: null,
      reason: null,
    };
  return { ok: false, events: verdict.events, first_id: null, last_id: null, broken_id: String(verdict.seq), reason: verdict.reason };
}
