import type { AppContext } from "../app-context";
import { nanosToUsd } from "../billing/money";
import { dayKey, monthKey, weekKey } from "../billing/windows";
import type { RollupRow } from "../store/store";
import { type AlertNotice, alertNotices, refusalFigures } from "./overview-notices";

const DAY_MS = 86_400_000;
/** days in the chart: today and the 29 before it (what the activity counters keep) */
export const CHART_DAYS = 30;
const TOP = 5;

export type Figures = { requests: number; spend: number };
export type ProviderHealth = { provider: string; requests: number; error_rate: number; p50_ms: number | null; p95_ms: number | null; open_circuits: number };
export type QueueFigures = { kind: string; waiting: number; dead: number };

export type Overview = {
  today: Figures;
  week: Figures;
  month: Figures;
  days: Array<{ day: string } & Figures>;
  top_models: Array<{ model: string } & Figures>;
  top_keys: Array<{ hash: string; name: string | null } & Figures>;
  providers: ProviderHealth[];
  /** background work waiting or dead by kind (video jobs, webhook and observability deliveries); null for members */
  queues: QueueFigures[] | null;
  /** requests refused before a generation over the last 30 days: per status, and per key the 402s and 429s */
  refusals: Awaited<ReturnType<typeof refusalFigures>>;
  /** budget alerts of the current windows */
  alerts: AlertNotice[];
};

const figures = (r: RollupRow | undefined): Figures => ({ requests: r?.requests ?? 0, spend: nanosToUsd((r?.usageNanos ?? 0) + (r?.byokUsageNanos ?? 0)) });

/** The last 30 minutes of each provider with traffic, from the live endpoint figures (no table is read). */
export function providerHealth(ctx: Pick<AppContext, "catalog" | "router">): ProviderHealth[] {
  const endpointsOf = new Map<string, string[]>();
  for (const model of ctx.catalog.models()) {
    for (const e of model.endpoints) {
      const ids = endpointsOf.get(e.provider.slug) ?? [];
      ids.push(e.id);
      endpointsOf.set(e.provider.slug, ids);
    }
  }
  const out: ProviderHealth[] = [];
  for (const [provider, ids] of endpointsOf) {
    const { ok, failed, latency } = ctx.router.stats.combined(ids, [0.5, 0.95]);
    const open = ids.filter((id) => ctx.router.circuits.health(id) === "open").length;
    if (ok + failed === 0 && open === 0) continue;
    out.push({
      provider,
      requests: ok + failed,
      error_rate: ok + failed === 0 ? 0 : Math.round((failed / (ok + failed)) * 10000) / 10000,
      p50_ms: latency[0] ?? null,
      p95_ms: latency[1] ?? null,
      open_circuits: open,
    });
  }
  return out.sort((a, b) => b.requests - a.requests || a.provider.localeCompare(b.provider));
}

/**
 * The console's first page, from counters only: spend and requests per day come from the
 * activity rollup (one row per day, workspace, key, model and endpoint, written with each
 * generation), provider health from the live endpoint figures, queues from the job counts.
 * `workspaceIds` narrows everything to those workspaces (a member's); undefined: all.
 */
export async function consoleOverview(ctx: AppContext, workspaceIds: readonly string[] | undefined, withQueues: boolean): Promise<Overview> {
  await ctx.generations.settled();
  const now = ctx.clock();
  const today = dayKey(now);
  const first = dayKey(now - (CHART_DAYS - 1) * DAY_MS);
  const { activity } = ctx.store;
  const range = (from: string, by: "all" | "day" | "model" | "key", top?: number) => activity.rollup({ from, to: today, workspaceIds, by, top });
  const [day, week, month, perDay, models, keys] = await Promise.all([
    range(today, "all"),
    range(weekKey(now), "all"),
    range(`${monthKey(now)}-01`, "all"),
    range(first, "day"),
    range(first, "model", TOP),
    range(first, "key", TOP),
  ]);
  const byDay = new Map(perDay.map((r) => [r.group, r]));
  const days = Array.from({ length: CHART_DAYS }, (_, i) => {
    const d = dayKey(now - (CHART_DAYS - 1 - i) * DAY_MS);
    return { day: d, ...figures(byDay.get(d)) };
  });
  const names = await Promise.all(keys.map((k) => ctx.store.keys.get(k.group)));
  const [refusals, alerts] = await Promise.all([refusalFigures(ctx, workspaceIds), alertNotices(ctx, workspaceIds)]);
  return {
    today: figures(day[0]),
    week: figures(week[0]),
    month: figures(month[0]),
    days,
    top_models: models.map((m) => ({ model: m.group, ...figures(m) })),
    top_keys: keys.map((k, i) => ({ hash: k.group, name: names[i]?.name ?? null, ...figures(k) })),
    providers: providerHealth(ctx),
    queues: withQueues ? await queueFigures(ctx, now) : null,
    refusals,
    alerts,
  };
}

async function queueFigures(ctx: AppContext, now: number): Promise<QueueFigures[]> {
  const { queues } = await ctx.store.jobs.stats(now);
  const byKind = new Map<string, QueueFigures>();
  for (const q of queues) {
    const row = byKind.get(q.kind) ?? { kind: q.kind, waiting: 0, dead: 0 };
    if (q.state === "pending" || q.state === "running") row.waiting += q.count;
    if (q.state === "dead") row.dead += q.count;
    byKind.set(q.kind, row);
  }
  return [...byKind.values()].filter((q) => q.waiting + q.dead > 0).sort((a, b) => a.kind.localeCompare(b.kind));
}
