import type { AppContext } from "../app-context";
import { type Admission, admitWorstCases, type ReservationLease } from "../billing/admission";
import { admitRate, rateRelease } from "../billing/rate-limit";
import type { Principal } from "../http/principal";
import type { GenerationAttempt, GenerationRecord, SettledGeneration, Store } from "../store/store";
import { attemptWithFallback, type FallbackCandidate, type FallbackDeps, type NotServed, type Served, type UpstreamOperation } from "./fallback";
import { appNameOf, type EndFacts, type GenerationIdentity, generationRecord, type ServedFacts, settlement } from "./generation-record";
import { applyPolicy, type PolicyCandidate, type PolicyContent } from "./policy";

export type { FallbackDeps };
export { appNameOf };

/**
 * The generation lifecycle of an operation that a job finishes (a video): the request admits it
 * and stores the job; a worker, perhaps in another process and much later, calls the upstream
 * through the same fallback loop and settles it with the same record builder. Same rules as
 * src/gateway/generation.ts, split where the job splits them.
 */

/** The admission (candidates, reservation and what it holds) and what the policy step made of the request. */
export type JobAdmission<C, R = never> = Admission<C> & {
  /** the request as the policy step left it (what goes upstream: redacted); undefined when the operation gave no content */
  request: R | undefined;
  /** the content filters that flagged the request, for its record */
  flags: readonly string[];
};

/**
 * Admits a generation that outlives its request, through the same policy step as a request
 * (src/gateway/policy.ts: the guardrails narrow the candidates, add their budgets, screen the
 * content; a refusal is thrown before anything is counted or reserved). It counts toward the
 * key's rate limits while it is being stored, and reserves the worst case of its candidates
 * against the key's limit, the workspace's budgets and the guardrails' budgets for as long as
 * `lease` says (no instance renews it: the job settles or fails before it ends). `store` keeps
 * the job; if it fails, the reservation is released.
 */
export async function admitJob<C extends PolicyCandidate & { isByok: boolean }, T, R = never>(
  deps: AppContext,
  principal: Principal,
  admission: { id: string; candidates: C[]; worstCase: (c: C) => number; lease: ReservationLease; content?: PolicyContent<R> },
  store: (admitted: JobAdmission<C, R>) => Promise<T>,
): Promise<T> {
  const policy = await applyPolicy(deps, principal, admission.candidates, admission.content);
  const now = deps.clock();
  const rate = await admitRate(deps.shared.rates, principal, admission.id, 0, now, deps.reservationLease.leaseMs);
  try {
    const admitted = await admitWorstCases(deps.store, principal, policy.candidates, admission.worstCase, admission.id, now, admission.lease, policy.caps);
    try {
      return await store({ ...admitted, request: policy.request, flags: policy.flags });
    } catch (err) {
      if (admitted.reservationId) await deps.store.reservations.release(admitted.reservationId).catch(() => undefined);
      throw err;
    }
  } finally {
    if (rate) await deps.shared.rates.release(rateRelease(rate, null, deps.clock()));
  }
}

/** The one fallback loop, for a job's upstream call: circuits, live stats and the final error as for a request. */
export function attemptJob<T, C extends FallbackCandidate>(
  deps: FallbackDeps,
  candidates: readonly C[],
  signal: AbortSignal,
  operation: UpstreamOperation<T, C>,
): Promise<Served<T, C> | NotServed> {
  return attemptWithFallback(deps, { candidates, signal, headers: {} }, operation);
}

/** A job's generation as the one record builder makes it. */
export type JobGeneration = { identity: GenerationIdentity; served: ServedFacts | null; attempts: readonly GenerationAttempt[]; end: EndFacts };

export const jobGenerationRecord = (g: JobGeneration, endedAt: number): GenerationRecord => generationRecord(g.identity, g.served, g.attempts, g.end, endedAt);

/**
 * Commits a job's record with its spend and the release of its reservation, in one transaction
 * (the store skips a record it holds already, so a rerun never charges twice).
 */
export async function settleJob(
  store: Store,
  record: GenerationRecord,
  endedAt: number,
  reservationId: string | null,
  captured?: Pick<SettledGeneration, "observation" | "content">,
): Promise<void> {
  await store.generations.commit([{ ...settlement(record, endedAt, reservationId), ...captured }]);
}
