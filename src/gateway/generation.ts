import type { AppContext } from "../app-context";
import { admitWorstCases, worstCaseNanos } from "../billing/admission";
import { countImages, estimatePromptTokens, promptTokensUpperBound, requiredModalities } from "../billing/estimate";
import { admitRate, rateRelease } from "../billing/rate-limit";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { RequestShape } from "../http/request-shape";
import type { IRRequest, IRUsage } from "../ir/types";
import type { CapturedInput, ObservedOperation } from "../observability/capture/captured-content";
import { forwardTargets, NO_TARGETS, observePlan } from "../observability/capture/observe-plan";
import type { Candidate } from "./candidates";
import { type Charge, charge, ZERO_COST } from "./charge";
import { credentialResolver } from "./credentials";
import { attemptWithFallback, type FallbackCandidate, type NotServed, type Served, type UpstreamOperation } from "./fallback";
import type { ApiType } from "./generation-record";
import { applyPolicy, type PolicyContent } from "./policy";
import {
  commitCachedGeneration,
  commitGeneration,
  type EndFacts,
  NOT_RECORDED,
  type RecordedCandidate,
  type RequestFacts,
  recordNotServed,
  settleAbandoned,
} from "./record";
import { type CacheHit, type CacheVerdict, cacheHeaders, consultCache } from "./response-cache/consult";
import { cacheDirective } from "./response-cache/directive";
import { type PlanInput, planRoute } from "./routing/plan";

/**
 * The generation lifecycle every metered operation plugs into (chat, responses, messages,
 * embeddings, video submission, and each operation added after them):
 *
 *   routeCatalog → openGeneration (policy: guardrails; rate admission, the response cache's
 *     look-up, spending admission, facts, observability plan)
 *   → generation.attempt (the one fallback loop: circuits, live stats, session affinity)
 *   → generation.settle (cost, the durable record, spend, telemetry) | generation.fail
 *   (a cache hit: generation.cached is answered and generation.settleCached records it)
 *
 * An operation supplies only what differs: its candidates' worst-case cost, how to call one
 * upstream API (an UpstreamOperation), how to read the answer, and its real cost
 * (`priceTokens`, or a cost of its own). It never imports billing, the record writer or the
 * fallback loop: docs/contributing.md, "How to add an operation".
 */

export type { ApiType };

/** What the lifecycle reads of a candidate: the fallback loop's view and the record's. */
export type GenerationCandidate = FallbackCandidate & RecordedCandidate;

export type { RequestShape };

/** What routing needs beyond the request's own models and preferences. */
export type RouteRequest = Pick<
  PlanInput,
  "models" | "requested" | "prefs" | "sentParameters" | "estimatedPromptTokens" | "requestedOutputTokens" | "modalities" | "sessionEndpoint"
>;

/** The endpoints of the chat catalog that may serve, filtered and ordered by the router. */
export async function routeCatalog(deps: AppContext, principal: Principal, route: RouteRequest): Promise<Candidate[]> {
  const { router } = deps;
  return planRoute({
    ...route,
    credentials: await credentialResolver(deps, principal),
    workspaceSort: principal.workspace.defaultProviderSort,
    stats: (endpoint) => router.stats.stats(endpoint),
    health: (endpoint) => router.circuits.health(endpoint),
    random: router.random,
  });
}

/** The worst case of a token-priced request on one candidate: every prompt token at the dearest input price, every allowed output token. */
export function tokenWorstCase(request: Pick<IRRequest, "messages" | "tools" | "maxOutputTokens">): (c: Candidate) => number {
  const promptTokens = promptTokensUpperBound(request);
  const images = countImages(request);
  return (c) => worstCaseNanos(c, promptTokens, request.maxOutputTokens, images);
}

/** The real cost of a token-priced answer, and the settlement its body carries. */
export function priceTokens(candidate: Pick<Candidate, "endpoint" | "isByok">, usage: IRUsage, images = 0, serviceMetadata?: Record<string, unknown>): Charge {
  return charge(candidate.endpoint.pricing, candidate.isByok, usage, images, serviceMetadata);
}

export type { Charge, EndFacts, NotServed, RequestFacts, Served, UpstreamOperation };
/** Estimates routing reads (context length, modalities) and the rate limits count. */
export { countImages, estimatePromptTokens, NOT_RECORDED, requiredModalities };

/** Everything known of a request before admission. `R`: the operation's request, when it gives the policy step text to screen. */
export type GenerationStart<C extends GenerationCandidate, R = never> = {
  id: string;
  /** when the request arrived: the record's latency counts from here */
  startedAt: number;
  apiType: ApiType;
  principal: Principal;
  http: RequestShape;
  requestedModel: string;
  streamed: boolean;
  sessionId: string | null;
  externalUser: string | null;
  presetId: string | null;
  trace: Record<string, unknown> | null;
  /** routed candidates, in the order to try them */
  candidates: C[];
  /** the most a candidate may cost (nanos), reserved against the key's limit and the workspace's budgets */
  worstCase: (candidate: C) => number;
  /** the prompt the rate limits count at admission (corrected by the usage at the end); absent: none */
  prompt?: Pick<IRRequest, "messages" | "tools">;
  /** what observability captures of the request; read only when a destination or I/O logging wants it */
  observe: { operation: ObservedOperation; input: () => CapturedInput };
  /** the request's text for the policy step (content filters may rewrite it); absent: nothing to screen */
  content?: PolicyContent<R>;
  /**
   * The request as the response cache keys it (the operation's normalized request, without what
   * does not change the answer); absent: the operation's answers are not cached.
   */
  cacheable?: () => unknown;
};

/** An admitted request: its facts, its candidates, and the steps that end its life. */
export type Generation<C extends GenerationCandidate, R = never> = {
  readonly facts: RequestFacts;
  readonly candidates: readonly C[];
  /** the request as the policy step left it (what goes upstream); undefined when the operation gave no content */
  readonly request: R | undefined;
  readonly idHeader: Readonly<Record<string, string>>;
  /** the headers of a successful answer: the generation id and, while the response cache is on, its verdict (X-Gateway-Cache, Age) */
  readonly answerHeaders: Readonly<Record<string, string>>;
  /** the response cache's answer to serve instead of calling upstream (no candidate is attempted); null: call upstream */
  readonly cached: CacheHit | null;
  /**
   * records a hit with cost 0 (nothing went upstream, nothing was reserved): on PostgreSQL it
   * resolves once durable (rejecting with a 503 GatewayError when it could not be made so); on
   * SQLite, where every read of generations first waits for the writer, once its record is queued
   * for the next group commit, at most COST_FREE_WINDOW_MS later (GenerationWriter.commitCostFree)
   */
  settleCached(end: Omit<EndFacts, "cost">): Promise<void>;
  /** the one fallback loop over the candidates; an unexpected fault is a recorded 500, never a lost reservation */
  attempt<T>(operation: UpstreamOperation<T, C>, options?: { signal?: AbortSignal; sessionKey?: string }): Promise<Served<T, C> | NotServed>;
  /** records a request no candidate served and gives back the error to answer with */
  fail(notServed: NotServed): Promise<GatewayError>;
  /** records a served request with its cost; resolves once durable, rejects with a 503 GatewayError when it could not be made so */
  settle(served: Served<unknown, C>, end: EndFacts): Promise<void>;
  /** the same, for an answer whose client went away (nobody waits for it) */
  settleQuietly(served: Served<unknown, C>, end: EndFacts): void;
  /** ends a request that failed unexpectedly after admission, unless it was recorded */
  abandon(message: string): Promise<void>;
};

/** Errors before any upstream call carry the generation id too. */
export function withIdHeader(err: unknown, idHeader: Record<string, string>): unknown {
  return err instanceof GatewayError ? new GatewayError(err.status, err.message, err.metadata, { ...err.headers, ...idHeader }) : err;
}

/**
 * Admission: the policy step (the key's guardrails: candidates allowed, budgets, the request's
 * text screened; src/gateway/policy.ts), the key's rate limits, then the reservation of the worst
 * case against its spending limit, its workspace's budgets and the guardrails' budgets
 * (candidates that cannot fit are dropped; none left: 402). What it holds is given back when the
 * generation is settled or failed.
 */
export async function openGeneration<C extends GenerationCandidate, R = never>(deps: AppContext, start: GenerationStart<C, R>): Promise<Generation<C, R>> {
  const idHeader = { "x-generation-id": start.id };
  try {
    return await admitted(deps, start, idHeader);
  } catch (err) {
    throw withIdHeader(err, idHeader);
  }
}

async function admitted<C extends GenerationCandidate, R>(
  deps: AppContext,
  start: GenerationStart<C, R>,
  idHeader: Record<string, string>,
): Promise<Generation<C, R>> {
  const { principal, id } = start;
  // refused by a guardrail: before a rate-limit slot is taken or anything reserved
  const policy = await applyPolicy(deps, principal, start.candidates, start.content);
  const now = deps.clock();
  // a bad X-Gateway-Cache is refused before it counts against the rate limits
  const directive = start.cacheable ? cacheDirective(deps.config.responseCache, start.http.headers) : null;
  const rateLimit = await admitRate(
    deps.shared.rates,
    principal,
    id,
    start.prompt ? estimatePromptTokens(start.prompt) : 0,
    now,
    deps.reservationLease.leaseMs,
  );
  let admission: { candidates: C[]; reservationId: string | null };
  let cache: CacheVerdict | null = null;
  try {
    // a hit calls no upstream and costs nothing: it reserves nothing either; it serves only where
    // the guardrails still allow the endpoint that made it
    if (directive && start.cacheable) cache = await consultCache(deps, directive, principal.workspace.id, start.cacheable, policy.candidates, now);
    admission = cache?.hit
      ? { candidates: policy.candidates, reservationId: null }
      : await admitWorstCases(deps.store, principal, policy.candidates, start.worstCase, id, now, deps.reservationLease, policy.caps);
  } catch (err) {
    // refused by the spending limit: nothing went upstream, so no slot stays held and no tokens count
    if (rateLimit) await deps.shared.rates.release(rateRelease(rateLimit, null, deps.clock()));
    throw err;
  }
  start.http.claim();
  const pendingTargets = forwardTargets(deps.destinationTargets, principal.workspace);
  const targets = pendingTargets ? await pendingTargets : NO_TARGETS;
  const observed = { id, sessionId: start.sessionId, trace: start.trace };
  const facts: RequestFacts = {
    id,
    route: start.http.route,
    startedAt: start.startedAt,
    principal,
    headers: start.http.headers,
    apiType: start.apiType,
    requestedModel: start.requestedModel,
    streamed: start.streamed,
    sessionId: start.sessionId,
    externalUser: start.externalUser,
    presetId: start.presetId,
    trace: start.trace,
    reservationId: admission.reservationId,
    rateLimit,
    observe: observePlan(principal.workspace, principal.key, observed, start.observe.operation, start.observe.input, targets),
    ...(policy.flags.length > 0 ? { guardrailFlags: policy.flags } : {}),
    cache,
  };
  return generationOf(deps, facts, admission.candidates, policy.request, idHeader, start.http.signal);
}

function generationOf<C extends GenerationCandidate, R>(
  deps: AppContext,
  facts: RequestFacts,
  candidates: readonly C[],
  request: R | undefined,
  idHeader: Record<string, string>,
  clientSignal: AbortSignal,
): Generation<C, R> {
  const notRecorded = () => {
    // the writer keeps retrying the record; the client must not take the answer as delivered
    throw new GatewayError(503, NOT_RECORDED, undefined, idHeader);
  };
  const hit = facts.cache?.hit ?? null;
  return {
    facts,
    candidates,
    request,
    idHeader,
    answerHeaders: { ...idHeader, ...cacheHeaders(facts.cache ?? null) },
    cached: hit,
    settleCached: (end) =>
      hit ? commitCachedGeneration(deps, facts, hit, { ...end, cost: ZERO_COST }).catch(notRecorded) : Promise.reject(new Error("not a cache hit")),
    attempt: (operation, options = {}) =>
      attemptWithFallback(deps, { candidates, signal: options.signal ?? clientSignal, headers: idHeader, sessionKey: options.sessionKey }, operation).catch(
        (err: unknown): NotServed => {
          deps.logger.error("upstream attempt failed unexpectedly", {
            id: facts.id,
            api_type: facts.apiType,
            error: String(err),
            stack: (err as Error)?.stack,
          });
          return { ok: false, error: new GatewayError(500, "Internal error while calling the provider", undefined, idHeader), attempts: [] };
        },
      ),
    fail: (notServed) => recordNotServed(deps, facts, notServed),
    settle: (served, end) => commitGeneration(deps, facts, served, served.attempts, end).catch(notRecorded),
    settleQuietly: (served, end) => void commitGeneration(deps, facts, served, served.attempts, end).catch(() => {}),
    abandon: (message) => settleAbandoned(deps, facts, message),
  };
}
