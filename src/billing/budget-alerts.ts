import { enqueueWebhook } from "../jobs/webhooks/enqueue";
import type { Logger } from "../logger";
import type { ApiKeyRecord, BudgetAlertRecord, GenerationRecord, Store, WorkspaceBudgetRecord, WorkspaceRecord } from "../store/store";
import { isoTime } from "../time";
import { budgetFigures, budgetReset, includesByokInBudgets } from "./budgets";
import { keySpend, limitWindow, spendInLimitWindow } from "./key-figures";
import { nanosToUsd } from "./money";

/** What a `budget.threshold_reached` event says (its `data`). */
export type BudgetAlertEvent = {
  scope: "key" | "workspace_budget";
  /** the key's hash, or the workspace's id */
  id: string;
  /** the key's limit_reset (null: a limit that never resets), or the budget's interval */
  interval: string | null;
  threshold: number;
  limit_usd: number;
  usage_usd: number;
};

/** The window a limit of this reset counts in now: the UTC day, ISO week's Monday or month, or "lifetime". */
const windowOf = (reset: ApiKeyRecord["limitReset"], now: number) => limitWindow({ limitReset: reset, includeByokInLimit: false }, now).windowKey || "lifetime";

/** A key's limit or a budget reached a threshold: the thresholds crossed, each with what was spent. */
type Crossing = { event: BudgetAlertEvent; windowKey: string; workspaceId: string };

/**
 * Budget alerts (issue 45): after generations are committed, the keys and workspaces they spent
 * on are checked against their `alert_thresholds`. A threshold the spend in the limit's current
 * window has reached sends one signed `budget.threshold_reached` webhook (Standard Webhooks, the
 * workspace's webhook_url, through the durable job queue): the alert is recorded with its job in
 * one transaction, keyed by scope, subject, interval, window and threshold, so it is sent once per
 * window however many requests, instances or retries see it. Keys and workspaces without
 * thresholds cost a cached lookup each; nothing runs on a request's way (the check follows the commit).
 */
export class BudgetAlerts {
  private keys = new Set<string>();
  private workspaces = new Set<string>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

  /** generations were committed: their keys and workspaces are checked soon */
  committed(records: readonly GenerationRecord[]): void {
    for (const r of records) {
      if (r.costNanos <= 0) continue;
      this.keys.add(r.keyHash);
      this.workspaces.add(r.workspaceId);
    }
    if (this.running === null && (this.keys.size > 0 || this.workspaces.size > 0)) this.running = this.run();
  }

  /** resolves once every check asked for so far has run */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    await Promise.resolve();
    try {
      while (this.keys.size > 0 || this.workspaces.size > 0) {
        const [keys, workspaces] = [[...this.keys], [...this.workspaces]];
        this.keys.clear();
        this.workspaces.clear();
        const crossings = [
          ...(await Promise.all(keys.map((hash) => this.keyCrossings(hash)))).flat(),
          ...(await Promise.all(workspaces.map((id) => this.budgetCrossings(id)))).flat(),
        ];
        for (const crossing of crossings) await this.send(crossing);
      }
    } catch (err) {
      this.logger.warn("budget alerts could not be checked", { error: String(err) });
    } finally {
      this.running = null;
    }
  }

  private async keyCrossings(hash: string): Promise<Crossing[]> {
    const key = await this.store.keys.get(hash);
    if (!key?.alertThresholds?.length || key.limitNanos === null || key.limitNanos <= 0) return [];
    const now = this.clock();
    const spent = spendInLimitWindow(key, keySpend(await this.store.usage.get(hash), now));
    return crossed(key.alertThresholds, key.limitNanos, spent).map((threshold) => ({
      event: { scope: "key", id: key.hash, interval: key.limitReset, threshold, limit_usd: nanosToUsd(key.limitNanos!), usage_usd: nanosToUsd(spent) },
      windowKey: windowOf(key.limitReset, now),
      workspaceId: key.workspaceId,
    }));
  }

  private async budgetCrossings(workspaceId: string): Promise<Crossing[]> {
    const budgets = (await this.store.budgets.list(workspaceId)).filter((b) => b.alertThresholds?.length);
    if (budgets.length === 0) return [];
    const workspace = await this.store.workspaces.find(workspaceId);
    if (!workspace) return [];
    const now = this.clock();
    const figures = budgetFigures(budgets, await this.store.budgets.usage(workspaceId), includesByokInBudgets(workspace), now);
    return budgets.flatMap((b, i) => budgetCrossing(workspace, b, figures[i]!.spentNanos, now));
  }

  private async send({ event, windowKey, workspaceId }: Crossing): Promise<void> {
    const now = this.clock();
    const alert: BudgetAlertRecord = {
      scope: event.scope,
      subjectId: event.id,
      interval: event.interval ?? "lifetime",
      windowKey,
      threshold: String(event.threshold),
      createdAt: now,
    };
    await this.store.transaction(async (tx) => {
      if (!(await tx.budgetAlerts.claim(alert))) return;
      const workspace = await tx.workspaces.find(workspaceId);
      // an alert of a workspace without a receiver is recorded (the console shows it) and sent nowhere
      if (!workspace?.webhookUrl) return;
      const body = JSON.stringify({ type: "budget.threshold_reached", timestamp: isoTime(now), data: event });
      await enqueueWebhook(tx.jobs, { workspace_id: workspaceId, event_id: alertEventId(alert), url: null, body }, now);
    });
  }
}

function budgetCrossing(workspace: WorkspaceRecord, b: WorkspaceBudgetRecord, spent: number, now: number): Crossing[] {
  return crossed(b.alertThresholds ?? [], b.limitNanos, spent).map((threshold) => ({
    event: { scope: "workspace_budget", id: workspace.id, interval: b.interval, threshold, limit_usd: nanosToUsd(b.limitNanos), usage_usd: nanosToUsd(spent) },
    windowKey: windowOf(budgetReset(b.interval), now),
    workspaceId: workspace.id,
  }));
}

/** the thresholds the spend has reached */
const crossed = (thresholds: readonly number[], limitNanos: number, spentNanos: number) =>
  limitNanos > 0 ? thresholds.filter((t) => spentNanos >= Math.round(t * limitNanos)) : [];

/** The event's `webhook-id`: the same for every attempt of one alert, and no `.` in it (thresholds as thousandths). */
export const alertEventId = (a: Pick<BudgetAlertRecord, "scope" | "subjectId" | "interval" | "windowKey" | "threshold">) =>
  `budget_${a.scope}_${a.subjectId}_${a.interval}_${a.windowKey}_${Math.round(Number(a.threshold) * 1000)}`;
