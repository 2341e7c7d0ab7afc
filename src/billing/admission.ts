import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { IRRequest } from "../ir/types";
import type { Store } from "../store/store";
import type { Candidate } from "../gateway/candidates";
import { outputCap } from "../catalog/output-cap";
import { countImages, promptTokensUpperBound } from "./estimate";
import { nanosToUsd } from "./money";
import { limitWindow } from "./key-figures";
import { windowKeys } from "./windows";

/** Who holds reservations and for how long: the holder renews the lease while it lives. */
export type ReservationLease = { instanceId: string; leaseMs: number };

/** The most a candidate can cost for this request: every prompt token at the dearest input price, every allowed output token. */
export function worstCaseNanos(c: Candidate, promptTokens: number, maxOutput: number | undefined, images: number): number {
  const p = c.endpoint.pricing;
  const output = outputCap(c.endpoint, maxOutput) ?? Math.max(0, c.endpoint.contextLength - promptTokens);
  const promptPrice = Math.max(p.prompt, p.inputCacheWrite, p.inputCacheWrite1h);
  const outputPrice = Math.max(p.completion, p.internalReasoning);
  return Math.ceil(promptTokens * promptPrice + output * outputPrice + p.request + images * p.image);
}

export type Admission = { candidates: Candidate[]; reservationId: string | null };

function paymentRequired(left: number): GatewayError {
  return new GatewayError(
    402,
    left <= 0
      ? "This key has reached its spending limit"
      : `This request could cost up to more than the $${nanosToUsd(left).toFixed(6)} left on this key's spending limit; lower max_tokens or raise the limit`,
    { limit_source: "key_limit" },
  );
}

/**
 * Before anything goes upstream: a key with a limit reserves the request's worst-case cost.
 * Candidates whose worst case does not fit in what is left are dropped; none left: 402.
 * BYOK spend counts only with include_byok_in_limit, so BYOK candidates reserve nothing otherwise.
 */
export async function admit(store: Store, principal: Principal, candidates: Candidate[], ir: Pick<IRRequest, "messages" | "tools" | "maxOutputTokens">, id: string, now: number, lease: ReservationLease): Promise<Admission> {
  const { key } = principal;
  const limitNanos = key.limitNanos;
  if (limitNanos === null) return { candidates, reservationId: null };
  const window = limitWindow(key, now);
  const windows = windowKeys(now);
  const reserve = (amountNanos: number) =>
    store.reservations.reserve({ id, keyHash: key.hash, limitNanos, window, windows, amountNanos, instanceId: lease.instanceId, now, expiresAt: now + lease.leaseMs });
  const promptTokens = promptTokensUpperBound(ir);
  const images = countImages(ir);
  const costs = candidates.map((c) => (c.isByok && !key.includeByokInLimit ? 0 : worstCaseNanos(c, promptTokens, ir.maxOutputTokens, images)));
  const amount = Math.max(0, ...costs);
  const left = await reserve(amount);
  if (left === null) return { candidates, reservationId: id };
  const fitting = candidates.filter((_, i) => costs[i]! <= left);
  // BYOK candidates outside the limit cost the key nothing and need no reservation
  if (fitting.length > 0 && fitting.every((c) => costs[candidates.indexOf(c)] === 0)) return { candidates: fitting, reservationId: null };
  if (left <= 0) throw paymentRequired(0);
  if (fitting.length === 0) throw paymentRequired(left);
  const reduced = Math.max(0, ...fitting.map((c) => costs[candidates.indexOf(c)]!));
  const retry = await reserve(reduced);
  if (retry !== null) throw paymentRequired(retry);
  return { candidates: fitting, reservationId: id };
}
