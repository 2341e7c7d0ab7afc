import { outputCap } from "../catalog/output-cap";
import type { CatalogEndpoint } from "../catalog/types";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { IRRequest } from "../ir/types";
import type { BudgetInterval, CapCheck, CapLeft, HeldAmounts, ReservationRefusal, Store } from "../store/store";
import { budgetChecks, includesByokInBudgets, type SpendCap } from "./budgets";
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

export type { SpendCap };

/**
 * The candidates admitted and the reservation that holds their worst case (null: none needed),
 * with the amounts it holds: what a job that outlives its process needs to hold it again
 * (src/videos/reservation-restore.ts).
 */
export type Admission<C> = { candidates: C[]; reservationId: string | null; held?: HeldAmounts };

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

function capExceeded(cap: SpendCap, left: number): GatewayError {
  const whose =
    cap.on === "member" ? "the budget of guardrail '" + cap.name + "' for this key's creator" : "the budget of guardrail '" + cap.name + "' for this key";
  return new GatewayError(
    402,
    left <= 0
      ? `This request is over ${whose}: it is spent`
      : `This request could cost up to more than the $${nanosToUsd(left).toFixed(6)} left in ${whose}; lower max_tokens or raise the guardrail's limit_usd`,
    { limit_source: "openrouter_guardrail_budget", guardrail_id: cap.id },
  );
}

/** What one reservation attempt holds: the amounts against the key (its limit and key caps), the workspace's budgets and the member's caps. */
type Reserve = (keyAmount: number, budgetAmount: number, memberAmount: number) => Promise<ReservationRefusal | null>;

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
 * (a video job's: its duration at the dearest per-second price), and for the caps a policy adds
 * (guardrail budgets). `worstCase` is called only when the key has a limit, the workspace budgets
 * or a cap applies. Key caps share the key's reservation (its amount is the largest any of them
 * or the limit needs), member caps hold on the member's spend row.
 */
export async function admitWorstCases<C extends { isByok: boolean }>(
  store: Store,
  principal: Principal,
  candidates: C[],
  worstCase: (c: C) => number,
  id: string,
  now: number,
  lease: ReservationLease,
  caps: readonly SpendCap[] = [],
): Promise<Admission<C>> {
  const { key, workspace } = principal;
  const limitNanos = key.limitNanos;
  const budgets = await store.budgets.list(workspace.id);
  if (limitNanos === null && budgets.length === 0 && caps.length === 0) return { candidates, reservationId: null };
  const window = limitWindow(key, now);
  const windows = windowKeys(now);
  const held = { id, keyHash: key.hash, window, windows, instanceId: lease.instanceId, now, expiresAt: now + lease.leaseMs };
  const includeByok = budgets.length > 0 && includesByokInBudgets(workspace);
  const checks = budgetChecks(budgets, includeByok, now);
  const capChecks: CapCheck[] = caps.map((c) => ({
    id: c.id,
    on: c.on,
    limitNanos: c.limitNanos,
    window: limitWindow({ limitReset: c.reset, includeByokInLimit: c.includeByok }, now),
  }));
  const member = key.creatorUserId;
  const reserve: Reserve =
    budgets.length === 0 && caps.length === 0
      ? async (amountNanos) => {
          const left = await store.reservations.reserve({ ...held, limitNanos: limitNanos!, amountNanos });
          return left === null ? null : { keyLeft: left, budgetLeft: null, budget: null };
        }
      : (amountNanos, workspaceAmountNanos, memberAmountNanos) =>
          store.reservations.reserveWithBudgets({
            ...held,
            limitNanos,
            amountNanos,
            workspaceId: workspace.id,
            budgets: checks,
            workspaceAmountNanos,
            caps: capChecks,
            member: member === null ? null : { userId: member, amountNanos: memberAmountNanos },
          });
  const worst = candidates.map(worstCase);
  const capCost = (on: SpendCap["on"], c: C, i: number) =>
    Math.max(0, ...caps.filter((cap) => cap.on === on).map((cap) => (c.isByok && !cap.includeByok ? 0 : worst[i]!)));
  const limitCosts = candidates.map((c, i) => (limitNanos === null || (c.isByok && !key.includeByokInLimit) ? 0 : worst[i]!));
  const keyCosts = candidates.map((c, i) => Math.max(limitCosts[i]!, capCost("key", c, i)));
  const budgetCosts = candidates.map((c, i) => (budgets.length === 0 || (c.isByok && !includeByok) ? 0 : worst[i]!));
  const memberCosts = candidates.map((c, i) => capCost("member", c, i));
  const most = (costs: number[], indexes: number[]) => Math.max(0, ...indexes.map((i) => costs[i]!));
  const amounts = (indexes: number[]) => [most(keyCosts, indexes), most(budgetCosts, indexes), most(memberCosts, indexes)] as const;
  const all = candidates.map((_, i) => i);
  // what the store holds: an amount a limit does not need is 0 (it holds nothing on that side)
  const heldOf = (indexes: number[]): HeldAmounts => {
    const [keyNanos, workspaceNanos, memberNanos] = amounts(indexes);
    return { keyNanos, workspaceNanos, memberNanos };
  };
  const refused = await reserve(...amounts(all));
  if (refused === null) return { candidates, reservationId: id, held: heldOf(all) };
  const { keyLeft, budgetLeft, budget } = refused;
  const capLeft = (cap: SpendCap): number => refused.caps?.find((c) => c.id === cap.id && c.on === cap.on)?.left ?? Number.POSITIVE_INFINITY;
  const keyFits = (i: number) => keyLeft === null || keyCosts[i]! <= keyLeft;
  const budgetFits = (i: number) => budgetLeft === null || budgetCosts[i]! <= budgetLeft;
  const capFits = (cap: SpendCap, i: number) => (cap.on === "key" ? keyCosts[i]! : memberCosts[i]!) <= capLeft(cap);
  const fitting = all.filter((i) => keyFits(i) && budgetFits(i) && caps.every((cap) => capFits(cap, i)));
  // BYOK candidates outside the limit, the budgets and the caps cost nothing and need no reservation
  if (fitting.length > 0 && fitting.every((i) => keyCosts[i] === 0 && budgetCosts[i] === 0 && memberCosts[i] === 0))
    return { candidates: fitting.map((i) => candidates[i]!), reservationId: null };
  if (keyLeft !== null && keyLeft <= 0) throw paymentRequired(0);
  if (budgetLeft !== null && budgetLeft <= 0) throw budgetExceeded(0, budget!);
  const spent = caps.find((cap) => capLeft(cap) <= 0);
  if (spent) throw capExceeded(spent, 0);
  if (fitting.length === 0) throw whyNothingFits(all, { keyFits, budgetFits, capFits, keyLeft, budgetLeft, budget, caps, capLeft });
  const retry = await reserve(...amounts(fitting));
  if (retry === null) return { candidates: fitting.map((i) => candidates[i]!), reservationId: id, held: heldOf(fitting) };
  const tight = caps.find(
    (cap) =>
      (retry.caps?.find((c) => c.id === cap.id && c.on === cap.on)?.left ?? Number.POSITIVE_INFINITY) <
      most(cap.on === "key" ? keyCosts : memberCosts, fitting),
  );
  if (retry.keyLeft !== null && !fitting.every((i) => limitCosts[i]! <= retry.keyLeft!)) throw paymentRequired(retry.keyLeft);
  if (tight) throw capExceeded(tight, retry.caps?.find((c: CapLeft) => c.id === tight.id && c.on === tight.on)?.left ?? 0);
  throw budgetExceeded(retry.budgetLeft ?? 0, retry.budget ?? budget!);
}

/** The limit that leaves no candidate room: the key's, else a budget, else a cap. */
function whyNothingFits(
  all: number[],
  f: {
    keyFits: (i: number) => boolean;
    budgetFits: (i: number) => boolean;
    capFits: (cap: SpendCap, i: number) => boolean;
    keyLeft: number | null;
    budgetLeft: number | null;
    budget: BudgetInterval | null;
    caps: readonly SpendCap[];
    capLeft: (cap: SpendCap) => number;
  },
): GatewayError {
  const cap = f.caps.find((c) => !all.some((i) => f.capFits(c, i)));
  if (cap) return capExceeded(cap, f.capLeft(cap));
  return all.some(f.keyFits) ? budgetExceeded(f.budgetLeft!, f.budget!) : paymentRequired(f.keyLeft!);
}
