import { t } from "elysia";
import { AUDIT_ACTIONS } from "../../audit/actions";

const Id = t.String({ minLength: 1, maxLength: 200 });

export const ListAuditLogsQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, default: 50 })),
  cursor: t.Optional(t.String({ pattern: "^[1-9][0-9]{0,15}$", description: "next_cursor of the previous page" })),
  actor_id: t.Optional(Id),
  action: t.Optional(t.Union(AUDIT_ACTIONS.map((a) => t.Literal(a)))),
  target_id: t.Optional(Id),
  since: t.Optional(t.String({ description: "UTC ISO 8601 date-time with seconds; events at or after it" })),
  until: t.Optional(t.String({ description: "UTC ISO 8601 date-time with seconds; events before it" })),
});

export const AuditEventData = t.Object({
  id: t.String({ description: "the event's number in the chain, as a string" }),
  created_at: t.String(),
  actor: t.Object({
    type: t.Union([t.Literal("user"), t.Literal("key"), t.Literal("scim"), t.Literal("cli"), t.Literal("system")]),
    id: t.Nullable(t.String()),
    label: t.Nullable(t.String()),
  }),
  action: t.String(),
  target: t.Object({ type: t.String(), id: t.Nullable(t.String()) }),
  workspace_id: t.Nullable(t.String()),
  ip: t.Nullable(t.String()),
  user_agent: t.Nullable(t.String()),
  changes: t.Record(t.String(), t.Object({ from: t.Unknown(), to: t.Unknown() }), { description: "what changed, field by field; secrets read [redacted]" }),
  hash: t.String({ description: "SHA-256 (hex) over the previous event's hash and this event's canonical JSON" }),
});

export const ListAuditLogsResponse = t.Object({ data: t.Array(AuditEventData), next_cursor: t.Nullable(t.String()) });

export const VerifyAuditLogResponse = t.Object({
  ok: t.Boolean(),
  events: t.Integer({ description: "events verified before the first broken one (all of them when ok)" }),
  first_id: t.Nullable(t.String()),
  last_id: t.Nullable(t.String()),
  broken_id: t.Nullable(t.String({ description: "the first broken event (or where a missing one should be)" })),
  reason: t.Nullable(t.String()),
});

export type ListAuditLogsInput = typeof ListAuditLogsQuery.static;
export type AuditEventOut = typeof AuditEventData.static;
export type VerifyAuditLogOut = typeof VerifyAuditLogResponse.static;
