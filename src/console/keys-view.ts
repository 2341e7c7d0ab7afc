import type { AppContext } from "../app-context";
import { nanosToUsd } from "../billing/money";
import type { KeyDataOut } from "../modules/keys/model";
import { renderKey } from "../modules/keys/service";
import type { ApiKeyRecord } from "../store/store";
import { type GuardrailRef, keyGuardrails } from "./guardrail-names";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** how far back a key's typical request is taken from */
const TYPICAL_DAYS = 30;

/**
 * A key as the console's Keys page shows it: the API's fields, what kind of key it is, whether its
 * limit still takes a typical request, and the guardrail assigned to it.
 */
export type ConsoleKey = KeyDataOut & { is_management: boolean; typical_request_usd: number | null; limit_reached: boolean; guardrail: GuardrailRef | null };

/** Each key's mean cost per request over the last 30 days, from the analytics counters (one query for all of them). */
async function typicalCosts(ctx: Pick<AppContext, "store" | "clock">, keys: readonly ApiKeyRecord[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const now = ctx.clock();
  const rows = await ctx.store.analytics.query({
    fromHour: now - (now % HOUR_MS) - TYPICAL_DAYS * DAY_MS,
    toHour: now - (now % HOUR_MS) + HOUR_MS,
    bucket: null,
    groupBy: ["key_hash"],
    filters: [{ column: "key_hash", op: "in", values: keys.map((k) => k.hash) }],
    sums: ["requests", "usage_nanos", "byok_usage_nanos"],
    maxGroups: keys.length,
  });
  const out = new Map<string, number>();
  for (const r of rows) {
    const requests = r.sums.requests ?? 0;
    if (requests > 0) out.set(r.groups.key_hash!, nanosToUsd(Math.round(((r.sums.usage_nanos ?? 0) + (r.sums.byok_usage_nanos ?? 0)) / requests)));
  }
  return out;
}

/**
 * The keys as the console lists them. A key is "limit reached" when what is left of its limit is
 * spent, or is less than its typical request costs: the next request will most likely be refused
 * (402), so a green bar would mislead.
 */
export async function consoleKeys(ctx: AppContext, keys: readonly ApiKeyRecord[]): Promise<ConsoleKey[]> {
  const typical = await typicalCosts(ctx, keys);
  const guardrails = keys.length === 0 ? new Map<string, GuardrailRef>() : await keyGuardrails(ctx.store.guardrails);
  return Promise.all(
    keys.map(async (k) => {
      const data = await renderKey(ctx, k);
      const usual = typical.get(k.hash) ?? null;
      const reached = data.limit_remaining !== null && (data.limit_remaining <= 0 || (usual !== null && data.limit_remaining < usual));
      return { ...data, is_management: k.isManagement, typical_request_usd: usual, limit_reached: reached, guardrail: guardrails.get(k.hash) ?? null };
    }),
  );
}
