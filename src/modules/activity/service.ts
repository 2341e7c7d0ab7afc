import { nanosToUsd } from "../../billing/money";
import { dayKey } from "../../billing/windows";
import { badRequest, notFound } from "../../errors";
import type { ActivityTotals, Store } from "../../store/store";
import type { ActivityInput, ActivityItemOut } from "./model";

/** Days of activity served: today (UTC, as counted so far) and the 29 before it. */
export const ACTIVITY_DAYS = 30;

const DAY_MS = 86_400_000;

export type ActivityDeps = { store: Store; clock: () => number; generations?: { settled(): Promise<void> } };

function render(t: ActivityTotals): ActivityItemOut {
  const item: ActivityItemOut = {
    date: t.day,
    model: t.model,
    model_permaslug: t.model,
    endpoint_id: t.endpointId,
    provider_name: t.providerName,
    usage: nanosToUsd(t.usageNanos),
    byok_usage_inference: nanosToUsd(t.byokUsageNanos),
    requests: t.requests,
    prompt_tokens: t.promptTokens,
    completion_tokens: t.completionTokens,
    reasoning_tokens: t.reasoningTokens,
  };
  return t.workspaceId === null ? item : { ...item, workspace_id: t.workspaceId };
}

/**
 * Spend, requests and tokens per UTC day, model and endpoint over the last 30 days (today
 * included), from the activity counters. Filters narrow to one day, key, user or workspace;
 * `group_by=workspace` splits every row by workspace. Unknown filter values are 404.
 */
export async function getActivity(deps: ActivityDeps, query: ActivityInput): Promise<{ data: ActivityItemOut[] }> {
  await deps.generations?.settled();
  const now = deps.clock();
  const today = dayKey(now);
  const first = dayKey(now - (ACTIVITY_DAYS - 1) * DAY_MS);
  if (query.date !== undefined && (dayKey(Date.parse(`${query.date}T00:00:00Z`) || 0) !== query.date || query.date < first || query.date > today)) {
    throw badRequest(`Invalid query parameter 'date': expected a UTC date from ${first} to ${today} (YYYY-MM-DD)`, { field: "date" });
  }
  let workspaceId: string | undefined;
  if (query.workspace_id !== undefined) {
    const ws = await deps.store.workspaces.find(query.workspace_id);
    if (!ws) throw notFound(`Workspace not found: ${query.workspace_id}`);
    workspaceId = ws.id;
  }
  if (query.api_key_hash !== undefined && !(await deps.store.keys.get(query.api_key_hash))) throw notFound(`API key not found: ${query.api_key_hash}`);
  if (query.user_id !== undefined && !(await deps.store.users.get(query.user_id))) throw notFound(`User not found: ${query.user_id}`);
  const totals = await deps.store.activity.totals({
    from: query.date ?? first,
    to: query.date ?? today,
    workspaceId,
    keyHash: query.api_key_hash,
    userId: query.user_id,
    byWorkspace: query.group_by === "workspace",
  });
  return { data: totals.map(render) };
}
