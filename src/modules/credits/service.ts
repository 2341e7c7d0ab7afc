import { budgetFigures, includesByokInBudgets } from "../../billing/budgets";
import { keySpend, spendInLimitWindow } from "../../billing/key-figures";
import { nanosToUsd } from "../../billing/money";
import type { Principal } from "../../http/principal";
import type { Store } from "../../store/store";
import type { CreditsOut } from "./model";

/**
 * `total_credits` when no limit applies. Clients read `total_credits - total_usage` as what they
 * may still spend and stop at zero, and the field cannot be null; a self-hosted gateway with no
 * limit has no balance to run out of, so it answers a figure no spend reaches (one billion USD).
 */
export const UNLIMITED_CREDITS_USD = 1_000_000_000;

export type CreditsDeps = { store: Store; clock: () => number; generations?: { settled(): Promise<void> } };

const answer = (creditsNanos: number | null, usageNanos: number): CreditsOut => ({
  data: { total_credits: creditsNanos === null ? UNLIMITED_CREDITS_USD : nanosToUsd(creditsNanos), total_usage: nanosToUsd(usageNanos) },
});

/** A limit and the spend counted against it now, nano-dollars. */
type Limit = { limitNanos: number; spentNanos: number };

/** The limit with the least left, if any. */
function binding(limits: Limit[]): Limit | undefined {
  return limits.reduce<Limit | undefined>(
    (best, l) => (best === undefined || l.limitNanos - l.spentNanos < best.limitNanos - best.spentNanos ? l : best),
    undefined,
  );
}

/**
 * An inference key's credits are the limit that binds it: of its own limit and its workspace's
 * budgets, the one with the least left, with `total_usage` the spend counted against it in its
 * current window, so `total_credits - total_usage` is what the key may still spend. With no
 * limit at all, `total_usage` is the key's all-time spend (USD, BYOK excluded).
 */
async function keyCredits(deps: CreditsDeps, principal: Principal): Promise<CreditsOut> {
  const { key, workspace } = principal;
  const now = deps.clock();
  const spend = keySpend(await deps.store.usage.get(key.hash), now);
  const limits: Limit[] = [];
  if (key.limitNanos !== null) limits.push({ limitNanos: key.limitNanos, spentNanos: spendInLimitWindow(key, spend) });
  const budgets = await deps.store.budgets.list(workspace.id);
  if (budgets.length > 0) limits.push(...budgetFigures(budgets, await deps.store.budgets.usage(workspace.id), includesByokInBudgets(workspace), now));
  const limit = binding(limits);
  return limit ? answer(limit.limitNanos, limit.spentNanos) : answer(null, spend.total);
}

/**
 * A management key's credits are the organization's: `total_usage` is every workspace's
 * all-time spend together (BYOK excluded); `total_credits` is the sum of the workspaces'
 * lifetime budgets when every workspace has one, and unlimited otherwise.
 */
async function organizationCredits(deps: CreditsDeps): Promise<CreditsOut> {
  const [spend, budgets, workspaces] = await Promise.all([deps.store.budgets.totalSpend(), deps.store.budgets.listAll(), deps.store.workspaces.count()]);
  const lifetime = budgets.filter((b) => b.interval === "lifetime");
  const capped = workspaces > 0 && lifetime.length === workspaces;
  return answer(capped ? lifetime.reduce((sum, b) => sum + b.limitNanos, 0) : null, spend.total);
}

export async function getCredits(deps: CreditsDeps, principal: Principal): Promise<CreditsOut> {
  // requests that ended here are counted before the figures are read
  await deps.generations?.settled();
  return principal.isManagement ? organizationCredits(deps) : keyCredits(deps, principal);
}
