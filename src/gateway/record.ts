import type { GenerationAttempt, GenerationRecord } from "../store/store";
import { type ApiType, appNameOf, type EndFacts, type GenerationIdentity, generationRecord, type ServedFacts, settlement } from "./generation-record";

export { type EndFacts, settlement };

import type { AppContext } from "../app-context";
import { type RateTicket, rateRelease } from "../billing/rate-limit";
import { secretBoxOf } from "../crypto/secret-box";
import type { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { CapturedOutput } from "../observability/capture/captured-content";
import type { ObservePlan } from "../observability/capture/observe-plan";
import { observationOutbox } from "../observability/capture/outbox";
import { plainRequest, type RequestSummary } from "../telemetry/request-summary";
import { ZERO_COST } from "./charge";
import { type NotServed, observeServed } from "./fallback";
import { type CacheHit, type CacheVerdict, cacheEntry } from "./response-cache/consult";

/** The answer could not be made durable: the client must not take it as delivered (the writer keeps retrying the record). */
export const NOT_RECORDED = "The gateway could not record this generation; retry the request";

/** What is known of a request once it is planned: everything its record needs but the outcome. */
export type RequestFacts = Readonly<{
  id: string;
  /** the route it came in on, as the access log and the metrics name it */
  route: string;
  startedAt: number;
  principal: Principal;
  headers: Headers;
  apiType: ApiType;
  requestedModel: string;
  streamed: boolean;
  sessionId: string | null;
  externalUser: string | null;
  presetId: string | null;
  trace: Record<string, unknown> | null;
  reservationId: string | null;
  /** what the request holds under its key's rate limits, given back when it ends */
  rateLimit: RateTicket | null;
  /** forwarded to destinations or kept by I/O logging once recorded; absent or null (the usual case): neither */
  observe?: ObservePlan | null;
  /** the guardrail content filters that flagged the request; absent: none */
  guardrailFlags?: readonly string[];
  /** the response cache's verdict; absent or null: the cache is off (or the operation is not cached) */
  cache?: CacheVerdict | null;
}>;

/** What the record names of the candidate that served: a chat `Candidate`, or another operation's (a video endpoint). */
export type RecordedCandidate = { endpoint: { id: string; provider: { slug: string; name: string } }; model: { id: string }; isByok: boolean };

export type ServedBy = { candidate: RecordedCandidate; servedAt: number } | null;

/**
 * Ends a request's life: feeds the serving endpoint's circuit and live figures, frees its rate
 * limit slot and corrects its tokens by its usage, and commits its generation record with its
 * spend and reservation release. Resolves once durable.
 */
type RecordDeps = Pick<AppContext, "clock" | "router" | "generations" | "telemetry" | "shared" | "config" | "secrets" | "logger">;

export function commitGeneration(
  deps: RecordDeps,
  facts: RequestFacts,
  served: ServedBy,
  attempts: readonly GenerationAttempt[],
  end: EndFacts,
  status = 200,
): Promise<void> {
  const endedAt = deps.clock();
  const candidate = served?.candidate;
  if (served) {
    observeServed(deps, served.candidate.endpoint.id, served.servedAt, {
      failed: end.finishReason === "error",
      cancelled: end.cancelled,
      streamed: facts.streamed,
      outputTokens: end.usage?.outputTokens ?? 0,
      firstTokenAt: end.firstTokenAt,
      endedAt,
    });
  }
  const record = generationRecord(identityOf(facts), candidate ? servedFacts(candidate) : null, attempts, end, endedAt);
  return commitRecord(deps, facts, record, candidate?.endpoint.provider.name ?? null, end, endedAt, status, end.usage);
}

/**
 * Records an answer the response cache served: nothing went upstream, so no endpoint's circuit
 * or live figures hear of it and the record names no endpoint (activity and live statistics
 * count upstream calls); its model and provider are the kept answer's, its cost 0. It counted as
 * a request against the rate limits; its tokens, which no upstream processed, do not count.
 */
export function commitCachedGeneration(deps: RecordDeps, facts: RequestFacts, hit: CacheHit, end: EndFacts): Promise<void> {
  const endedAt = deps.clock();
  const { answer } = hit;
  const served: ServedFacts = { model: answer.model, providerName: answer.provider.slug, endpointId: null, isByok: false };
  const record = generationRecord(identityOf(facts), served, [], end, endedAt);
  return commitRecord(deps, facts, record, answer.provider.name, end, endedAt, 200, null, true);
}

/** The durable end of a request: its record with its spend, outbox and response cache entry, the rate-limit slot freed, the access log and metrics told. */
function commitRecord(
  deps: RecordDeps,
  facts: RequestFacts,
  record: GenerationRecord,
  providerName: string | null,
  end: EndFacts,
  endedAt: number,
  status: number,
  /** the tokens the rate limits count for it */
  tokens: EndFacts["usage"],
  /** it owes nothing (a cache hit): it may be committed a few milliseconds later (GenerationWriter.commitCostFree) */
  costFree = false,
): Promise<void> {
  const outbox = facts.observe ? outboxOf(deps, facts.observe, record, providerName, end.output ?? null, endedAt) : undefined;
  const cache = facts.cache;
  const kept =
    cache && end.keep && !end.cancelled && end.finishReason !== "error"
      ? cacheEntry(cache, record.workspaceId, record.id, end.keep, deps.config.responseCache, endedAt)
      : null;
  const pending = { ...settlement(record, endedAt, facts.reservationId), ...outbox, ...(kept ? { cacheEntry: kept } : {}) };
  const durable = costFree ? deps.generations.commitCostFree(pending) : deps.generations.commit(pending);
  // the next request of the key may come as soon as this answer ends: the slot is free by then
  const committed = facts.rateLimit ? Promise.all([durable, deps.shared.rates.release(rateRelease(facts.rateLimit, tokens, endedAt))]).then(() => {}) : durable;
  return committed.then(
    () => deps.telemetry.requestEnded(generationSummary(record, facts.route, status)),
    (err: unknown) => {
      deps.telemetry.requestEnded(generationSummary(record, facts.route, 503));
      throw err;
    },
  );
}

/** The observation outbox of a record; a fault building it is logged and never costs the record. */
function outboxOf(deps: RecordDeps, plan: ObservePlan, record: GenerationRecord, providerName: string | null, output: CapturedOutput | null, now: number) {
  try {
    return observationOutbox(secretBoxOf(deps), plan, record, { providerName, output }, now);
  } catch (err) {
    deps.logger.error("could not capture a generation for observability; it is recorded without", { id: record.id, error: String(err) });
    return undefined;
  }
}

/** What a planned request's record says of it. */
export function identityOf(facts: RequestFacts): GenerationIdentity {
  const { principal, headers } = facts;
  return {
    id: facts.id,
    keyHash: principal.key.hash,
    workspaceId: principal.workspace.id,
    userId: principal.user?.id ?? null,
    apiType: facts.apiType,
    requestedModel: facts.requestedModel,
    streamed: facts.streamed,
    sessionId: facts.sessionId,
    externalUser: facts.externalUser,
    presetId: facts.presetId,
    trace: facts.trace,
    httpReferer: headers.get("http-referer"),
    userAgent: headers.get("user-agent"),
    appName: appNameOf(headers),
    startedAt: facts.startedAt,
    ...(facts.guardrailFlags ? { guardrailFlags: facts.guardrailFlags } : {}),
    cacheStatus: facts.cache?.status ?? null,
    cacheSourceId: facts.cache?.hit?.sourceId ?? null,
  };
}

/** A catalog candidate as the record names it: the provider by its slug. */
function servedFacts(candidate: RecordedCandidate): ServedFacts {
  return { model: candidate.model.id, providerName: candidate.endpoint.provider.slug, endpointId: candidate.endpoint.id, isByok: candidate.isByok };
}

/** The access-log and metrics view of a committed generation. */
function generationSummary(record: GenerationRecord, route: string, status: number): RequestSummary {
  return {
    ...plainRequest("POST", route, status, record.latencyMs ?? 0, record.keyHash, record.id),
    model: record.model,
    provider: record.providerName,
    streamed: record.streamed,
    finishReason: record.finishReason,
    tokensPrompt: record.tokensPrompt,
    tokensCompletion: record.tokensCompletion,
    tokensReasoning: record.tokensReasoning,
    tokensCached: record.tokensCached,
    costUsd: record.costNanos / 1e9,
    timeToFirstTokenMs: record.timeToFirstTokenMs,
    attempts: record.attempts.length,
    ...(record.cacheStatus ? { cache: record.cacheStatus } : {}),
  };
}

/** Records a request no candidate served (the writer retries a failed record itself) and hands back the error to answer with. */
export async function recordNotServed(deps: RecordDeps, facts: RequestFacts, failed: NotServed): Promise<GatewayError> {
  const { error } = failed;
  const end: EndFacts = {
    usage: null,
    usageEstimated: false,
    cost: ZERO_COST,
    cancelled: error.status === 499,
    finishReason: "error",
    nativeFinishReason: null,
    upstreamId: null,
    firstTokenAt: null,
    errorMessage: error.message,
  };
  await commitGeneration(deps, facts, null, failed.attempts, end, error.status).catch(() => {});
  return error;
}

/**
 * A request whose answer failed unexpectedly after planning (a bug, not an upstream failure):
 * unless its generation was recorded already, record it as an error, which releases what it
 * held (the spending reservation, the rate-limit slot) instead of leaving them to the leases of a
 * live instance, which renews them for as long as it runs.
 */
export async function settleAbandoned(deps: RecordDeps & Pick<AppContext, "store">, facts: RequestFacts, message: string): Promise<void> {
  await deps.generations.settled();
  if (await deps.store.generations.get(facts.id).catch(() => undefined)) return;
  const end: EndFacts = {
    usage: null,
    usageEstimated: false,
    cost: ZERO_COST,
    cancelled: false,
    finishReason: "error",
    nativeFinishReason: null,
    upstreamId: null,
    firstTokenAt: null,
    errorMessage: message,
  };
  await commitGeneration(deps, facts, null, [], end, 500).catch(() => {});
}
