import { and, eq, sql } from "drizzle-orm";
import { byInterval } from "../budget-order";
import { budgetRecord, budgetRow } from "../columns";
import type { WorkspaceBudgetStore } from "../store";
import type { Conn } from "./client";
import { workspaceBudgets, workspaceUsage } from "./schema";

export function pgBudgetStore({ db }: Conn): WorkspaceBudgetStore {
  return {
    async list(workspaceId) {
      return byInterval((await db.select().from(workspaceBudgets).where(eq(workspaceBudgets.workspaceId, workspaceId))).map(budgetRecord));
    },
    async listAll() {
      return (await db.select().from(workspaceBudgets)).map(budgetRecord);
    },
    async put(budget) {
      const [row] = await db
        .insert(workspaceBudgets)
        .values(budgetRow(budget))
        .onConflictDoUpdate({
          target: [workspaceBudgets.workspaceId, workspaceBudgets.interval],
          set: { limitNanos: budget.limitNanos, alertThresholds: budgetRow(budget).alertThresholds, updatedAt: budget.updatedAt },
        })
        .returning();
      return budgetRecord(row!);
    },
    async delete(workspaceId, interval) {
      const rows = await db
        .delete(workspaceBudgets)
        .where(and(eq(workspaceBudgets.workspaceId, workspaceId), eq(workspaceBudgets.interval, interval)))
        .returning({ id: workspaceBudgets.id });
      return rows.length > 0;
    },
    async usage(workspaceId) {
      const [row] = await db.select().from(workspaceUsage).where(eq(workspaceUsage.workspaceId, workspaceId));
      if (!row) return undefined;
      const { held: _held, ...usage } = row;
      return usage;
    },
    async held(workspaceId) {
      const [row] = await db.select({ held: workspaceUsage.held }).from(workspaceUsage).where(eq(workspaceUsage.workspaceId, workspaceId));
      return row?.held ?? 0;
    },
    async totalSpend() {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${workspaceUsage.total}), 0)`, byokTotal: sql<string>`coalesce(sum(${workspaceUsage.byokTotal}), 0)` })
        .from(workspaceUsage);
      return { total: Number(row?.total ?? 0), byokTotal: Number(row?.byokTotal ?? 0) };
    },
  };
}
