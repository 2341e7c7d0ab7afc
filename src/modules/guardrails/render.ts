import { nanosToUsd } from "../../billing/money";
import { BUILTINS } from "../../gateway/guardrails/builtins";
import { defaultGuardrailId, defaultGuardrailName } from "../../gateway/guardrails/default-guardrail";
import { RULE_KEYS, type Rules, rulesOf } from "../../gateway/guardrails/rules";
import type { GuardrailRecord, KeyAssignmentRecord, MemberAssignmentRecord, WorkspaceRecord } from "../../store/store";
import { isoOrNull, isoTime } from "../../time";
import type { GuardrailDataOut } from "./model";

/** A guardrail as the API shows it: every rule field (null when not set), builtin filters with their system labels. */
export function renderGuardrail(g: GuardrailRecord, workspace: Pick<WorkspaceRecord, "id" | "name"> | null): GuardrailDataOut {
  const rules = rulesOf(g);
  const fields = Object.fromEntries(RULE_KEYS.map((k) => [k, rules[k] ?? null])) as { [K in (typeof RULE_KEYS)[number]]: NonNullable<Rules[K]> | null };
  const isDefault = workspace !== null && g.id === defaultGuardrailId(workspace.id);
  return {
    id: g.id,
    name: isDefault ? defaultGuardrailName(workspace) : g.name,
    description: g.description,
    workspace_id: g.workspaceId,
    limit_usd: g.limitNanos === null ? null : nanosToUsd(g.limitNanos),
    reset_interval: g.resetInterval,
    include_byok_in_budgets: g.includeByokInBudgets,
    ...fields,
    content_filter_builtins:
      rules.content_filter_builtins?.map((b) => ({
        slug: b.slug,
        action: b.action,
        label: BUILTINS[b.slug].label,
        ...(b.scan_scope === undefined ? {} : { scan_scope: b.scan_scope }),
      })) ?? null,
    content_filters: rules.content_filters?.map((c) => ({ pattern: c.pattern, action: c.action, label: c.label ?? null })) ?? null,
    created_at: isoTime(g.createdAt),
    updated_at: isoOrNull(g.updatedAt),
  };
}

export const renderKeyAssignment = (a: KeyAssignmentRecord) => ({
  id: a.id,
  key_hash: a.keyHash,
  key_name: a.keyName,
  key_label: a.keyLabel,
  guardrail_id: a.guardrailId,
  assigned_by: a.assignedBy,
  created_at: isoTime(a.createdAt),
});

export const renderMemberAssignment = (a: MemberAssignmentRecord, organizationId: string) => ({
  id: a.id,
  user_id: a.userId,
  organization_id: organizationId,
  guardrail_id: a.guardrailId,
  assigned_by: a.assignedBy,
  created_at: isoTime(a.createdAt),
});

/** What an audit event compares: the API's fields of a guardrail, without its id and timestamps (the event names the id). */
export function auditedGuardrail(g: GuardrailRecord, workspace: Pick<WorkspaceRecord, "id" | "name"> | null): Record<string, unknown> {
  const { id: _id, created_at: _created, updated_at: _updated, ...fields } = renderGuardrail(g, workspace);
  return fields;
}
