import type { BudgetInterval, WorkspaceBudgetRecord } from "./store";

const RANK: Record<BudgetInterval, number> = { daily: 0, weekly: 1, monthly: 2, lifetime: 3 };

/** Budgets narrowest interval first, the same on every dialect. */
export const byInterval = (budgets: WorkspaceBudgetRecord[]): WorkspaceBudgetRecord[] => [...budgets].sort((a, b) => RANK[a.interval] - RANK[b.interval]);
