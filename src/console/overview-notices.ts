import type { AppContext } from "../app-context";
import { dayKey, monthKey, weekKey } from "../billing/windows";
import type { BudgetAlertRecord } from "../store/store";
import { isoTime } from "../time";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** 402s and 429s of one key over the last 30 days: what its clients were refused. */
export type KeyRefusals = { hash: string; name: string | null; payment_required: number; rate_limited: number };

/** A budget alert of the current window: a key's limit or a workspace budget past one of its thresholds. */
export type AlertNotice = { scope: "key" | "workspace_budget"; id: string; name: string; interval: string; threshold: number; created_at: string };

/**
 * Refusals per key and status from the hourly counters (30 days, `workspaceIds` only when given),
 * the keys with a 402 or a 429 first, most refused first; and every status's total.
 */
export async function refusalFigures(
  ctx: Pick<AppContext, "store" | "clock" | "refusals">,
  workspaceIds: readonly string[] | undefined,
): Promise<{ by_status: Record<string, number>; keys: KeyRefusals[] }> {
  await ctx.refusals.settled();
  const now = ctx.clock();
  const hour = now - (now % HOUR_MS);
  const counts = await ctx.store.refusals.counts({ fromHour: hour - 30 * DAY_MS, toHour: hour + HOUR_MS, workspaceIds });
  const byStatus: Record<string, number> = {};
  const perKey = new Map<string, KeyRefusals>();
  for (const c of counts) {
    byStatus[c.status] = (byStatus[c.status] ?? 0) + c.requests;
    if (c.keyHash === "" || (c.status !== 402 && c.status !== 429)) continue;
    const row = perKey.get(c.keyHash) ?? { hash: c.keyHash, name: null, payment_required: 0, rate_limited: 0 };
    if (c.status === 402) row.payment_required += c.requests;
    else row.rate_limited += c.requests;
    perKey.set(c.keyHash, row);
  }
  const keys = [...perKey.values()].sort((a, b) => b.payment_required + b.rate_limited - (a.payment_required + a.rate_limited) || a.hash.localeCompare(b.hash));
  for (const k of keys) k.name = (await ctx.store.keys.get(k.hash))?.name ?? null;
  return { by_status: byStatus, keys };
}

const currentWindow = (interval: string, now: number) =>
  interval === "daily" ? dayKey(now) : interval === "weekly" ? weekKey(now) : interval === "monthly" ? monthKey(now) : "lifetime";

/**
 * The budget alerts sent in their current windows (a daily one until midnight UTC, ...), the highest
 * threshold of each key's limit and workspace budget, named; only those of `workspaceIds` when given.
 */
export async function alertNotices(
  ctx: Pick<AppContext, "store" | "clock" | "budgetAlerts">,
  workspaceIds: readonly string[] | undefined,
): Promise<AlertNotice[]> {
  await ctx.budgetAlerts.settled();
  const now = ctx.clock();
  const recent = (await ctx.store.budgetAlerts.recent(now - 32 * DAY_MS, 500)).filter((a) => a.windowKey === currentWindow(a.interval, now));
  const highest = new Map<string, BudgetAlertRecord>();
  for (const a of recent) {
    const id = `${a.scope}|${a.subjectId}|${a.interval}`;
    const seen = highest.get(id);
    if (!seen || Number(a.threshold) > Number(seen.threshold)) highest.set(id, a);
  }
  const out: AlertNotice[] = [];
  for (const a of highest.values()) {
    const named = a.scope === "key" ? await ctx.store.keys.get(a.subjectId) : await ctx.store.workspaces.find(a.subjectId);
    if (!named) continue;
    const workspaceId = "workspaceId" in named ? named.workspaceId : named.id;
    if (workspaceIds !== undefined && !workspaceIds.includes(workspaceId)) continue;
    out.push({ scope: a.scope, id: a.subjectId, name: named.name, interval: a.interval, threshold: Number(a.threshold), created_at: isoTime(a.createdAt) });
  }
  return out.sort((a, b) => b.threshold - a.threshold || a.name.localeCompare(b.name));
}
