import type { AppContext } from "../app-context";
import { admitWorstCases, type ReservationLease } from "../billing/admission";
import { admitRate, rateRelease } from "../billing/rate-limit";
import type { Principal } from "../http/principal";
import type { GenerationAttempt, GenerationRecord, SettledGeneration, Store } from "../store/store";
import { attemptWithFallback, type FallbackCandidate, type FallbackDeps, type NotServed, type Served, type UpstreamOperation } from "./fallback";
import { appNameOf, type EndFacts, type GenerationIdentity, generationRecord, type ServedFacts, settlement } from "./generation-record";

export type { FallbackDeps };
export { appNameOf };

/**
 * The generation lifecycle of an operation that a job finishes (a video): the request admits it
 * and stores the job; a worker, perhaps in another process and much later, calls the upstream
 * through the same fallback loop and settles it with the same record builder. Same rules as
 * src/gateway/generation.ts, split where the job splits them.
 */

export type JobAdmission<C> = { candidates: C[]; reservationId: string | null };

/**
 * Admits a generation that outlives its request: it counts toward the key's rate limits while it
 * is being stored, and reserves the worst case of its candidates for as long as `lease` says (no
 * instance renews it: the job settles or fails before it ends). `store` keeps the job; if it
 * fails, the reservation is released.
 */
export async function admitJob<C extends { isByok: boolean }, T>(
  deps: AppContext,
  principal: Principal,
  admission: { id: string; candidates: C[]; worstCase: (c: C) => number; lease: ReservationLease },
  store: (admitted: JobAdmission<C>) => Promise<T>,
): Promise<T> {
  const now = deps.clock();
  const rate = await admitRate(deps.shared.rates, principal, admission.id, 0, now, deps.reservationLease.leaseMs);
  try {
    const admitted = await admitWorstCases(deps.store, principal, admission.candidates, admission.worstCase, admission.id, now, admission.lease);
    try {
      return await store(admitted);
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
