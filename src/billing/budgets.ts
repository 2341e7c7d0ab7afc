import type { BudgetCheck, BudgetInterval, KeyUsageRow, LimitReset, WorkspaceBudgetRecord, WorkspaceRecord, WorkspaceUsageRow } from "../store/store";
import { keySpend, limitWindow, spendInLimitWindow } from "./key-figures";

export const BUDGET_INTERVALS: readonly BudgetInterval[] = ["daily", "weekly", "monthly", "lifetime"];

/** A budget's reset window, named as a key limit's `limit_reset` (null: lifetime, never resets). */
export const budgetReset = (interval: BudgetInterval) => (interval === "lifetime" ? null : interval);

/** Whether BYOK spend counts toward the workspace's budgets: one setting for all its intervals. */
export const includesByokInBudgets = (workspace: Pick<WorkspaceRecord, "settings">): boolean => workspace.settings.include_byok_in_budgets === true;

/** The budgets as the store checks them at `now`: each measured like a key limit with the same reset. */
export function budgetChecks(budgets: readonly WorkspaceBudgetRecord[], includeByok: boolean, now: number): BudgetCheck[] {
  return budgets.map((b) => ({
    interval: b.interval,
    limitNanos: b.limitNanos,
    window: limitWindow({ limitReset: budgetReset(b.interval), includeByokInLimit: includeByok }, now),
  }));
}

/**
 * Budgets must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily).
 * Returns the interval of a budget that `candidate` would break the order with, or null.
 */
export function budgetOrderConflict(
  existing: readonly WorkspaceBudgetRecord[],
  candidate: { interval: BudgetInterval; limitNanos: number },
): BudgetInterval | null {
  const rank = BUDGET_INTERVALS.indexOf(candidate.interval);
  for (const b of existing) {
    const other = BUDGET_INTERVALS.indexOf(b.interval);
    if (other < rank && b.limitNanos >= candidate.limitNanos) return b.interval;
    if (other > rank && b.limitNanos <= candidate.limitNanos) return b.interval;
  }
  return null;
}

/** A budget's limit and the workspace's spend that counts against it now (nano-dollars). */
export type BudgetFigures = { interval: BudgetInterval; limitNanos: number; spentNanos: number };

export function budgetFigures(
  budgets: readonly WorkspaceBudgetRecord[],
  usage: WorkspaceUsageRow | undefined,
  includeByok: boolean,
  now: number,
): BudgetFigures[] {
  const spend = keySpend(usage === undefined ? undefined : ({ ...usage, hash: usage.workspaceId } satisfies KeyUsageRow), now);
  return budgets.map((b) => ({
    interval: b.interval,
    limitNanos: b.limitNanos,
    spentNanos: spendInLimitWindow({ limitReset: budgetReset(b.interval), includeByokInLimit: includeByok }, spend),
  }));
}

/**
 * A spending cap a policy adds to a request (a guardrail's budget), enforced like the key's limit:
 * measured over its reset window (null: never resets) on the key's spend (`on: "key"`) or on the
 * spend of every key its creator made in the workspace (`on: "member"`), the worst case reserved
 * against it with the key's limit and the workspace's budgets in one step. `name` says which
 * guardrail refused.
 */
export type SpendCap = { id: string; name: string; on: "key" | "member"; limitNanos: number; reset: LimitReset | null; includeByok: boolean };
