import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import { BUDGET_INTERVALS, budgetOrderConflict, budgetReset, includesByokInBudgets } from "../../billing/budgets";
import { nanosToUsd, usdToNanos } from "../../billing/money";
import { badRequest, notFound } from "../../errors";
import type { BudgetInterval, WorkspaceBudgetRecord } from "../../store/store";
import { isoTime } from "../../time";
import { storedThresholds } from "../keys/alert-thresholds";
import type { BudgetDataOut, PutBudgetInput } from "./model";
import { findWorkspace, type WorkspaceDeps } from "./service";

export function renderBudget(b: WorkspaceBudgetRecord): BudgetDataOut {
  return {
    id: b.id,
    workspace_id: b.workspaceId,
    limit_usd: nanosToUsd(b.limitNanos),
    reset_interval: budgetReset(b.interval),
    alert_thresholds: b.alertThresholds,
    created_at: isoTime(b.createdAt),
    updated_at: isoTime(b.updatedAt),
  };
}

/** Records a budget's change in the transaction `tx` that makes it; `byok` is the workspace's include_byok_in_budgets before and after. */
function recordBudgetChange(
  tx: AuditTables,
  now: number,
  origin: ChangeOrigin,
  workspaceId: string,
  interval: BudgetInterval,
  before: { budget: WorkspaceBudgetRecord | undefined; byok: boolean },
  after: { budget: WorkspaceBudgetRecord | undefined; byok: boolean },
) {
  const shown = (side: typeof before) => ({
    limit_usd: side.budget ? nanosToUsd(side.budget.limitNanos) : null,
    reset_interval: budgetReset(interval),
    include_byok_in_budgets: side.byok,
  });
  return recordChange(tx, now, origin, {
    action: after.budget ? "budget.set" : "budget.delete",
    target: { type: "budget", id: `${workspaceId}:${interval}` },
    workspaceId,
    changes: changesBetween(shown(before), shown(after)),
  });
}

export async function listBudgets(deps: WorkspaceDeps, ref: string) {
  const ws = await findWorkspace(deps.store, ref);
  const budgets = await deps.store.budgets.list(ws.id);
  return { data: budgets.map(renderBudget), include_byok_in_budgets: includesByokInBudgets(ws) };
}

export async function getBudget(deps: WorkspaceDeps, ref: string, interval: BudgetInterval) {
  const ws = await findWorkspace(deps.store, ref);
  const budget = (await deps.store.budgets.list(ws.id)).find((b) => b.interval === interval);
  if (!budget) throw notFound(`Workspace '${ws.slug}' has no ${interval} budget`);
  return { data: renderBudget(budget), include_byok_in_budgets: includesByokInBudgets(ws) };
}

/**
 * Creates or changes the workspace's budget of one interval. Read and written in one store
 * transaction, so two requests cannot each pass the ordering check against the other's old value.
 */
export function setBudget(deps: WorkspaceDeps, origin: ChangeOrigin, ref: string, interval: BudgetInterval, body: PutBudgetInput) {
  return deps.store.transaction(async (tx) => {
    let ws = await findWorkspace(tx, ref);
    const limitNanos = usdToNanos(body.limit_usd);
    const current = await tx.budgets.list(ws.id);
    const existing = current.find((b) => b.interval === interval);
    const others = current.filter((b) => b.interval !== interval);
    const before = { budget: existing, byok: includesByokInBudgets(ws) };
    const conflict = budgetOrderConflict(others, { interval, limitNanos });
    if (conflict !== null) {
      const other = others.find((b) => b.interval === conflict)!;
      const relation = BUDGET_INTERVALS.indexOf(conflict) < BUDGET_INTERVALS.indexOf(interval) ? "more" : "less";
      throw badRequest(
        `Invalid field 'limit_usd': the ${interval} budget must be ${relation} than the ${conflict} budget ($${nanosToUsd(other.limitNanos)}); limits must strictly decrease lifetime > monthly > weekly > daily`,
        { field: "limit_usd", conflicting_interval: conflict },
      );
    }
    const now = deps.clock();
    const budget = await tx.budgets.put({
      id: crypto.randomUUID(),
      workspaceId: ws.id,
      interval,
      limitNanos,
      // absent keeps the budget's thresholds, as include_byok_in_budgets keeps its setting
      alertThresholds: body.alert_thresholds === undefined ? (existing?.alertThresholds ?? null) : (storedThresholds(body.alert_thresholds) ?? null),
      createdAt: now,
      updatedAt: now,
    });
    if (body.include_byok_in_budgets !== undefined && body.include_byok_in_budgets !== includesByokInBudgets(ws)) {
      ws = (await tx.workspaces.update(ws.id, { settings: { ...ws.settings, include_byok_in_budgets: body.include_byok_in_budgets } }, now))!;
    }
    await recordBudgetChange(tx, now, origin, ws.id, interval, before, { budget, byok: includesByokInBudgets(ws) });
    return { data: renderBudget(budget), include_byok_in_budgets: includesByokInBudgets(ws) };
  });
}

export function deleteBudget(deps: WorkspaceDeps, origin: ChangeOrigin, ref: string, interval: BudgetInterval): Promise<{ deleted: true }> {
  return deps.store.transaction(async (tx) => {
    const ws = await findWorkspace(tx, ref);
    const budget = (await tx.budgets.list(ws.id)).find((b) => b.interval === interval);
    if (!budget || !(await tx.budgets.delete(ws.id, interval))) throw notFound(`Workspace '${ws.slug}' has no ${interval} budget`);
    const byok = includesByokInBudgets(ws);
    await recordBudgetChange(tx, deps.clock(), origin, ws.id, interval, { budget, byok }, { budget: undefined, byok });
    return { deleted: true as const };
  });
}
