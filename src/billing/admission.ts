import { outputCap } from "../catalog/output-cap";
import type { CatalogEndpoint } from "../catalog/types";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { IRRequest } from "../ir/types";
import type { BudgetInterval, ReservationRefusal, Store } from "../store/store";
import { budgetChecks, includesByokInBudgets } from "./budgets";
import { countImages, promptTokensUpperBound } from "./estimate";
import { limitWindow } from "./key-figures";
import { nanosToUsd } from "./money";
import { windowKeys } from "./windows";

/** Who holds reservations and for how long: the holder renews the lease while it lives. */
export type ReservationLease = { instanceId: string; leaseMs: number };

/** What admission prices: an endpoint, and whether the caller's own key (BYOK) serves it. The gateway's `Candidate` is one. */
export type PricedCandidate = { endpoint: CatalogEndpoint; isByok: boolean };

/** The most a candidate can cost for this request: every prompt token at the dearest input price, every allowed output token. */
export function worstCaseNanos(c: Pick<PricedCandidate, "endpoint">, promptTokens: number, maxOutput: number | undefined, images: number): number {
  const p = c.endpoint.pricing;
  const output = outputCap(c.endpoint, maxOutput) ?? Math.max(0, c.endpoint.contextLength - promptTokens);
  const promptPrice = Math.max(p.prompt, p.inputCacheWrite, p.inputCacheWrite1h);
  const outputPrice = Math.max(p.completion, p.internalReasoning);
  return Math.ceil(promptTokens * promptPrice + output * outputPrice + p.request + images * p.image);
}

export type Admission<C> = { candidates: C[]; reservationId: string | null };

function paymentRequired(left: number): GatewayError {
  return new GatewayError(
    402,
    left <= 0
      ? "This key has reached its spending limit"
      : `This request could cost up to more than the $${nanosToUsd(left).toFixed(6)} left on this key's spending limit; lower max_tokens or raise the limit`,
    { limit_source: "key_limit" },
  );
}

function budgetExceeded(left: number, interval: BudgetInterval): GatewayError {
  return new GatewayError(
    402,
    left <= 0
      ? `This key's workspace has reached its ${interval} budget`
      : `This request could cost up to more than the $${nanosToUsd(left).toFixed(6)} left in this key's workspace ${interval} budget; lower max_tokens or raise the budget`,
    { limit_source: "openrouter_workspace_budget", budget_interval: interval },
  );
}

/** What one reservation attempt holds: the amount against the key's limit and the one against the workspace's budgets. */
type Reserve = (keyAmount: number, budgetAmount: number) => Promise<ReservationRefusal | null>;

/**
 * Before anything goes upstream: a key with a limit, or a key of a workspace with budgets,
 * reserves the request's worst-case cost against the limit and every budget at once.
 * Candidates whose worst case does not fit in what is left are dropped; none left: 402 naming
 * the limit that refused. BYOK spend counts toward the key's limit only with
 * include_byok_in_limit and toward the budgets only with the workspace's include_byok_in_budgets,
 * so a BYOK candidate may reserve on one side and not the other.
 */
export async function admit<C extends PricedCandidate>(
  store: Store,
  principal: Principal,
  candidates: C[],
  ir: Pick<IRRequest, "messages" | "tools" | "maxOutputTokens">,
  id: string,
  now: number,
  lease: ReservationLease,
): Promise<Admission<C>> {
  const promptTokens = promptTokensUpperBound(ir);
  const images = countImages(ir);
  return admitWorstCases(store, principal, candidates, (c) => worstCaseNanos(c, promptTokens, ir.maxOutputTokens, images), id, now, lease);
}

/**
 * The reservation step of `admit` for any operation that knows each candidate's worst-case cost
 * (a video job's: its duration at the dearest per-second price). `worstCase` is called only when
 * the key has a limit or the workspace budgets.
 */
export async function admitWorstCases<C extends { isByok: boolean }>(
  store: Store,
  principal: Principal,
  candidates: C[],
  worstCase: (c: C) => number,
  id: string,
  now: number,
  lease: ReservationLease,
): Promise<Admission<C>> {
  const { key, workspace } = principal;
  const limitNanos = key.limitNanos;
  const budgets = await store.budgets.list(workspace.id);
  if (limitNanos === null && budgets.length === 0) return { candidates, reservationId: null };
  const window = limitWindow(key, now);
  const windows = windowKeys(now);
  const held = { id, keyHash: key.hash, window, windows, instanceId: lease.instanceId, now, expiresAt: now + lease.leaseMs };
  const includeByok = budgets.length > 0 && includesByokInBudgets(workspace);
  const checks = budgetChecks(budgets, includeByok, now);
  const reserve: Reserve =
    budgets.length === 0
      ? async (amountNanos) => {
          const left = await store.reservations.reserve({ ...held, limitNanos: limitNanos!, amountNanos });
          return left === null ? null : { keyLeft: left, budgetLeft: null, budget: null };
        }
      : (amountNanos, workspaceAmountNanos) =>
          store.reservations.reserveWithBudgets({ ...held, limitNanos, amountNanos, workspaceId: workspace.id, budgets: checks, workspaceAmountNanos });
  const worst = candidates.map(worstCase);
  const keyCosts = candidates.map((c, i) => (limitNanos === null || (c.isByok && !key.includeByokInLimit) ? 0 : worst[i]!));
  const budgetCosts = candidates.map((c, i) => (budgets.length === 0 || (c.isByok && !includeByok) ? 0 : worst[i]!));
  const amounts = (indexes: number[]) => [Math.max(0, ...indexes.map((i) => keyCosts[i]!)), Math.max(0, ...indexes.map((i) => budgetCosts[i]!))] as const;
  const all = candidates.map((_, i) => i);
  const refused = await reserve(...amounts(all));
  if (refused === null) return { candidates, reservationId: id };
  const { keyLeft, budgetLeft, budget } = refused;
  const keyFits = (i: number) => keyLeft === null || keyCosts[i]! <= keyLeft;
  const budgetFits = (i: number) => budgetLeft === null || budgetCosts[i]! <= budgetLeft;
  const fitting = all.filter((i) => keyFits(i) && budgetFits(i));
  // BYOK candidates outside the limit and the budgets cost nothing and need no reservation
  if (fitting.length > 0 && fitting.every((i) => keyCosts[i] === 0 && budgetCosts[i] === 0))
    return { candidates: fitting.map((i) => candidates[i]!), reservationId: null };
  if (keyLeft !== null && keyLeft <= 0) throw paymentRequired(0);
  if (budgetLeft !== null && budgetLeft <= 0) throw budgetExceeded(0, budget!);
  if (fitting.length === 0) throw all.some(keyFits) ? budgetExceeded(budgetLeft!, budget!) : paymentRequired(keyLeft!);
  const retry = await reserve(...amounts(fitting));
  if (retry !== null)
    throw retry.keyLeft !== null && !fitting.every((i) => keyCosts[i]! <= retry.keyLeft!)
      ? paymentRequired(retry.keyLeft)
      : budgetExceeded(retry.budgetLeft ?? 0, retry.budget ?? budget!);
  return { candidates: fitting.map((i) => candidates[i]!), reservationId: id };
}
