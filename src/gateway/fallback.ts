import { GatewayError } from "../errors";
import { retryAfterMs } from "../retry-after";
import type { GenerationAttempt } from "../store/store";
import type { Telemetry } from "../telemetry/telemetry";
import type { Candidate } from "./candidates";
import { finalError } from "./final-error";
import type { RouterState } from "./routing/router-state";
import { type ClassifiedFailure, classifyFailure, type UpstreamFailure } from "./upstream-failure";

/**
 * One upstream operation (a completion in some format, embeddings, a video submission): call
 * one candidate, up to the point where its answer is known to be usable. Nothing has reached
 * the client yet, so any failure here can fall over to the next candidate.
 */
export type UpstreamOperation<T, C extends FallbackCandidate = Candidate> = (
  candidate: C,
  signal: AbortSignal,
) => Promise<{ ok: true; status: number; value: T } | UpstreamFailure>;

/** What the loop reads of a candidate: a chat `Candidate`, or another kind's (a video endpoint). */
export type FallbackCandidate = { endpoint: { id: string; provider: { slug: string } }; model: { id: string }; isByok: boolean };

export type Served<T, C extends FallbackCandidate = Candidate> = {
  ok: true;
  value: T;
  candidate: C;
  /** when the serving attempt began: its latency excludes the candidates that failed before it */
  servedAt: number;
  attempts: readonly GenerationAttempt[];
};

export type NotServed = { ok: false; error: GatewayError; attempts: readonly GenerationAttempt[] };

export type FallbackDeps = { router: RouterState; clock: () => number; telemetry: Pick<Telemetry, "attempt"> };

export type FallbackRequest<C extends FallbackCandidate = Candidate> = {
  candidates: readonly C[];
  /** aborted when the client goes away */
  signal: AbortSignal;
  /** stamped on the final error */
  headers: Record<string, string>;
  /** workspace-scoped session key: the endpoint that serves is remembered for it */
  sessionKey?: string;
};

/**
 * The one fallback loop: tries candidates in order until one serves or fails for a reason
 * another would share. It alone claims circuit probes, feeds circuits and live stats with
 * failures, and builds the final error.
 */
export async function attemptWithFallback<T, C extends FallbackCandidate = Candidate>(
  deps: FallbackDeps,
  request: FallbackRequest<C>,
  operation: UpstreamOperation<T, C>,
): Promise<Served<T, C> | NotServed> {
  const { circuits, stats } = deps.router;
  const attempts: GenerationAttempt[] = [];
  const failures: ClassifiedFailure[] = [];
  // an endpoint past its cooldown gets one probe, claimed only when it is about to be tried;
  // when another request holds the probe it waits behind every other candidate
  const deferred: C[] = [];
  for (const candidate of inTryOrder(request.candidates, deferred)) {
    if (request.signal.aborted) break;
    const endpointId = candidate.endpoint.id;
    if (!deferred.includes(candidate) && circuits.health(endpointId) === "probe" && !circuits.claimProbe(endpointId)) {
      deferred.push(candidate);
      continue;
    }
    const began = deps.clock();
    const outcome = await operation(candidate, request.signal);
    const attempt = {
      model: candidate.model.id,
      provider: candidate.endpoint.provider.slug,
      endpoint: endpointId,
      status: outcome.status,
      latency: deps.clock() - began,
    };
    attempts.push(attempt);
    if (outcome.ok) {
      deps.telemetry.attempt({ ...attempt, ok: true, latencyMs: attempt.latency, retryable: false });
      if (request.sessionKey !== undefined) deps.router.sessions.set(request.sessionKey, endpointId);
      return { ok: true, value: outcome.value, candidate, servedAt: began, attempts };
    }
    // a client that went away says nothing about the endpoint
    if (request.signal.aborted) break;
    const classified = classifyFailure(outcome, candidate.endpoint.provider.slug, candidate.isByok);
    deps.telemetry.attempt({ ...attempt, ok: false, latencyMs: attempt.latency, message: outcome.message, retryable: classified.retryable });
    if (classified.blameEndpoint) {
      circuits.failure(endpointId, outcome.retryAfterMs ?? retryAfterMs(outcome.retryAfter, deps.clock()));
      stats.record(endpointId, false, null, null);
    } else if (!classified.retryable) {
      // it answered: the request was at fault, not the endpoint
      circuits.success(endpointId);
    }
    failures.push(classified);
    if (!classified.retryable) break;
  }
  if (request.signal.aborted) return { ok: false, error: clientClosed(request.headers), attempts };
  return { ok: false, error: finalError(failures, request.headers), attempts };
}

function* inTryOrder<C>(planned: readonly C[], deferred: readonly C[]): Generator<C> {
  yield* planned;
  yield* deferred;
}

const clientClosed = (headers: Record<string, string>) => new GatewayError(499, "Client closed the request", undefined, headers);

/** How the served attempt ended, for the circuit and the live figures routing sorts by. */
export type ServedOutcome = {
  failed: boolean;
  cancelled: boolean;
  streamed: boolean;
  outputTokens: number;
  firstTokenAt: number | null;
  endedAt: number;
};

/** Feeds the served endpoint's circuit and live figures once its answer has ended. */
export function observeServed(deps: FallbackDeps, endpointId: string, servedAt: number, o: ServedOutcome): void {
  const { circuits, stats } = deps.router;
  if (o.cancelled) return;
  if (o.failed) {
    circuits.failure(endpointId);
    stats.record(endpointId, false, null, null, o.endedAt);
    return;
  }
  circuits.success(endpointId);
  const firstAt = o.firstTokenAt ?? o.endedAt;
  // the clock counts whole milliseconds: a faster answer still took some time, not none
  const seconds = Math.max(1, o.endedAt - (o.streamed ? firstAt : servedAt)) / 1000;
  const throughput = o.outputTokens > 0 ? o.outputTokens / seconds : null;
  stats.record(endpointId, true, firstAt - servedAt, throughput, o.endedAt);
}
