import { and, eq, sql } from "drizzle-orm";
import { byInterval } from "../budget-order";
import { budgetRecord, budgetRow } from "../columns";
import type { WorkspaceBudgetStore } from "../store";
import type { Db, WriteStep } from "./client";
import type { ReservationBook } from "./reservation-book";
import { workspaceBudgets, workspaceUsage } from "./schema";

export function sqliteBudgetStore(db: Db, write: WriteStep, book: ReservationBook): WorkspaceBudgetStore {
  return {
    async list(workspaceId) {
      return byInterval(db.select().from(workspaceBudgets).where(eq(workspaceBudgets.workspaceId, workspaceId)).all().map(budgetRecord));
    },
    async listAll() {
      return db.select().from(workspaceBudgets).all().map(budgetRecord);
    },
    put: (budget) =>
      write(() =>
        db
          .insert(workspaceBudgets)
          .values(budgetRow(budget))
          .onConflictDoUpdate({
            target: [workspaceBudgets.workspaceId, workspaceBudgets.interval],
            set: { limitNanos: budget.limitNanos, alertThresholds: budgetRow(budget).alertThresholds, updatedAt: budget.updatedAt },
          })
          .returning()
          .get(),
      ).then(budgetRecord),
    delete: (workspaceId, interval) =>
      write(
        () =>
          db
            .delete(workspaceBudgets)
            .where(and(eq(workspaceBudgets.workspaceId, workspaceId), eq(workspaceBudgets.interval, interval)))
            .returning()
            .all().length > 0,
      ),
    async usage(workspaceId) {
      const row = db.select().from(workspaceUsage).where(eq(workspaceUsage.workspaceId, workspaceId)).get();
      if (!row) return undefined;
      const { held: _held, ...usage } = row;
      return usage;
    },
    async held(workspaceId) {
      return book.workspaceHeld(workspaceId);
    },
    async totalSpend() {
      const row = db
        .select({ total: sql<number>`coalesce(sum(${workspaceUsage.total}), 0)`, byokTotal: sql<number>`coalesce(sum(${workspaceUsage.byokTotal}), 0)` })
        .from(workspaceUsage)
        .get();
      return { total: row?.total ?? 0, byokTotal: row?.byokTotal ?? 0 };
    },
  };
}
