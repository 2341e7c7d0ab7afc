import type { Server } from "bun";
import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { EncodeContext, InboundCodec } from "../ir/codec";
import type { IRRequest, IRUsage } from "../ir/types";
import { computeCost, type CostBreakdown } from "../billing/cost";
import { nanosToUsd } from "../billing/money";
import type { GenerationAttempt } from "../store/store";
import { attemptUpstream, type AttemptFailure, type AttemptSuccess } from "./attempt";
import { requestedModels, type Candidate } from "./candidates";
import { credentialResolver } from "./credentials";
import { decodeWithPreset } from "./preset-merge";
import { planRoute } from "./routing/plan";
import { parseRetryAfter } from "./routing/circuit";
import type { ProviderPreferences } from "./routing/preferences";
import { countImages, estimatePromptTokens, promptText, requiredModalities } from "../billing/estimate";
import { admit } from "../billing/admission";
import { countTokens } from "../billing/tokenizer";
import { inboundCodecs, upstreamCodecs, type InboundFormat } from "./codecs";
import { finalError } from "./final-error";
import { serviceMetadata, wantsServiceMetadata } from "./metadata";
import { generationRecord, settlement } from "./record";

export const ZERO_COST: CostBreakdown = { total: 0, prompt: 0, completion: 0, other: 0 };

export type InferenceDeps = AppContext;

export type InferenceInput = {
  format: InboundFormat;
  body: unknown;
  principal: Principal;
  request: Request;
  server: Server<unknown> | null;
  /** assigned when the request arrived, so that even auth and validation errors carry it */
  generationId: string;
};

export type Served = { success: AttemptSuccess; candidate: Candidate; abort: AbortController };

/** One inference request from decode to recorded generation. */
export class InferenceRun {
  readonly id: string;
  readonly startedAt: number;
  readonly attempts: GenerationAttempt[] = [];
  readonly failures: Array<{ failure: AttemptFailure; provider: string }> = [];
  readonly inbound: InboundCodec;
  readonly wantsMetadata: boolean;
  ir!: IRRequest;
  requested = "";
  served: Candidate | null = null;
  /** when the serving attempt began: its latency excludes the candidates that failed before it */
  servedAt = 0;
  reservationId: string | null = null;
  presetId: string | null = null;
  usageEstimated = false;

  constructor(
    readonly deps: InferenceDeps,
    readonly input: InferenceInput,
  ) {
    this.startedAt = deps.clock();
    this.id = input.generationId;
    this.inbound = inboundCodecs[input.format];
    this.wantsMetadata = wantsServiceMetadata(input.request.headers);
  }

  get idHeader(): Record<string, string> {
    return { "x-generation-id": this.id };
  }

  async plan(): Promise<Candidate[]> {
    const { ir, presetId } = await decodeWithPreset(this.deps, this.input.principal, this.input.format, this.input.body, this.input.request.headers);
    this.presetId = presetId;
    this.ir = ir;
    const requested = this.ir.model || this.input.principal.workspace.defaultTextModel;
    if (!requested) throw new GatewayError(400, "Invalid field 'model': required (the workspace has no default model)", { field: "model" });
    this.requested = requested;
    const models = requestedModels(this.deps.catalog, requested, this.ir.models);
    const { router } = this.deps;
    const candidates = planRoute({
      models,
      requested,
      prefs: (this.ir.provider ?? {}) as ProviderPreferences,
      sentParameters: this.ir.sentParameters,
      estimatedPromptTokens: estimatePromptTokens(this.ir),
      requestedOutputTokens: this.ir.maxOutputTokens ?? 0,
      modalities: requiredModalities(this.ir),
      credentials: await credentialResolver(this.deps, this.input.principal),
      workspaceSort: this.input.principal.workspace.defaultProviderSort,
      stats: (id) => router.stats.stats(id),
      health: (id) => router.circuits.health(id),
      sessionEndpoint: this.ir.sessionId ? router.sessions.get(this.sessionKey()) : undefined,
      random: router.random,
    });
    const admission = await admit(this.deps.store, this.input.principal, candidates, this.ir, this.id, this.deps.clock(), this.deps.reservationLease);
    this.reservationId = admission.reservationId;
    return admission.candidates;
  }

  /** Session affinity is per workspace: two teams may pick the same session id. */
  sessionKey(): string {
    return `${this.input.principal.workspace.id}\u0000${this.ir.sessionId}`;
  }

  /** Tries candidates in order until one produces output or fails for a reason another would share. */
  async attemptAll(planned: Candidate[]): Promise<Served | GatewayError> {
    const { circuits, stats } = this.deps.router;
    // an endpoint past its cooldown gets one probe, claimed only when it is about to be tried;
    // when another request holds the probe it waits behind every other candidate
    const deferred: Candidate[] = [];
    const tryOrder = function* () {
      yield* planned;
      yield* deferred;
    };
    for (const candidate of tryOrder()) {
      if (this.input.request.signal.aborted) break;
      if (!deferred.includes(candidate) && circuits.health(candidate.endpoint.id) === "probe" && !circuits.claimProbe(candidate.endpoint.id)) {
        deferred.push(candidate);
        continue;
      }
      const abort = new AbortController();
      const began = this.deps.clock();
      const codec = upstreamCodecs[candidate.endpoint.provider.api];
      const request = this.upstreamRequest(candidate);
      const outcome = await attemptUpstream({ candidate, codec, request, signal: this.input.request.signal, firstByteTimeoutMs: this.deps.config.routing.firstByteTimeoutMs }, abort);
      this.attempts.push({ model: candidate.model.id, provider: candidate.endpoint.provider.slug, endpoint: candidate.endpoint.id, status: outcome.status, latency: this.deps.clock() - began });
      if (outcome.ok) {
        this.served = candidate;
        this.servedAt = began;
        if (this.ir.sessionId) this.deps.router.sessions.set(this.sessionKey(), candidate.endpoint.id);
        return { success: outcome, candidate, abort };
      }
      const rejectedCredential = candidate.isByok && (outcome.status === 401 || outcome.status === 403);
      if (rejectedCredential) {
        // one workspace's bad BYOK key says nothing about the endpoint's health for everyone else
      } else if (outcome.retryable) {
        circuits.failure(candidate.endpoint.id, parseRetryAfter(outcome.retryAfter, this.deps.clock()));
        stats.record(candidate.endpoint.id, false, null, null);
      } else {
        // it answered: the request was at fault, not the endpoint
        circuits.success(candidate.endpoint.id);
      }
      this.failures.push({ failure: outcome, provider: candidate.endpoint.provider.slug });
      if (!outcome.retryable) break;
    }
    if (this.input.request.signal.aborted) return new GatewayError(499, "Client closed the request", undefined, this.idHeader);
    return finalError(this.failures, this.idHeader);
  }

  /** Upstream-specific adjustments: Anthropic requires max_tokens, so use the endpoint's cap. */
  upstreamRequest(candidate: Candidate): IRRequest {
    if (this.ir.maxOutputTokens !== undefined || candidate.endpoint.maxCompletionTokens === null) return this.ir;
    return { ...this.ir, maxOutputTokens: candidate.endpoint.maxCompletionTokens };
  }

  /**
   * Fills in what the upstream did not report (no usage at all, or a stream cut before its
   * output count) by counting tokens, and marks the generation as estimated.
   */
  completeUsage(usage: IRUsage, outputText: string): void {
    if (usage.inputTokens === 0) {
      usage.inputTokens = countTokens(promptText(this.ir));
      this.usageEstimated = true;
    }
    if (usage.outputTokens === 0 && outputText !== "") {
      usage.outputTokens = countTokens(outputText);
      this.usageEstimated = true;
    }
  }

  priceUsage(usage: IRUsage): CostBreakdown {
    if (!this.served) return ZERO_COST;
    const cost = computeCost(this.served.endpoint.pricing, usage, { images: countImages(this.ir) });
    usage.cost = nanosToUsd(cost.total);
    usage.isByok = this.served.isByok;
    usage.costDetails = {
      upstreamInferencePromptCost: nanosToUsd(cost.prompt),
      upstreamInferenceCompletionsCost: nanosToUsd(cost.completion),
      upstreamInferenceCost: this.served.isByok ? nanosToUsd(cost.total) : null,
    };
    return cost;
  }

  metadata(): Record<string, unknown> | undefined {
    if (!this.wantsMetadata) return undefined;
    return serviceMetadata({
      requested: this.requested,
      model: this.served?.model.id ?? this.requested,
      provider: this.served?.endpoint.provider.slug ?? null,
      generationId: this.id,
      isByok: this.served?.isByok ?? false,
      attempts: this.attempts,
    });
  }

  encodeContext(): EncodeContext {
    return { generationId: this.id, model: this.served?.model.id ?? this.requested, created: Math.floor(this.startedAt / 1000), request: this.ir };
  }

  /** resolves once the generation, its spend and its reservation release are durable */
  record(o: { usage: IRUsage | null; cost: CostBreakdown; streamed: boolean; cancelled: boolean; finishReason: string | null; nativeFinishReason?: string | null; upstreamId?: string | null; firstTokenAt?: number | null; errorMessage?: string | null }): Promise<void> {
    const { principal } = this.input;
    const endedAt = this.deps.clock();
    const record = generationRecord({
      id: this.id,
      keyHash: principal.key.hash,
      workspaceId: principal.workspace.id,
      userId: principal.user?.id ?? null,
      apiType: "completions",
      requestedModel: this.requested || null,
      model: this.served?.model.id ?? this.requested,
      providerName: this.served?.endpoint.provider.slug ?? null,
      endpointId: this.served?.endpoint.id ?? null,
      upstreamId: o.upstreamId ?? null,
      streamed: o.streamed,
      cancelled: o.cancelled,
      finishReason: o.finishReason,
      nativeFinishReason: o.nativeFinishReason ?? null,
      usage: o.usage,
      usageEstimated: this.usageEstimated,
      cost: o.cost,
      isByok: this.served?.isByok ?? false,
      startedAt: this.startedAt,
      endedAt,
      firstTokenAt: o.firstTokenAt ?? null,
      attempts: this.attempts,
      sessionId: this.ir?.sessionId ?? null,
      externalUser: this.ir?.user ?? null,
      presetId: this.presetId,
      trace: (this.ir?.trace as Record<string, unknown> | undefined) ?? null,
      headers: this.input.request.headers,
      errorMessage: o.errorMessage ?? null,
    });
    if (this.served) this.observe(o, endedAt);
    return this.deps.generations.commit(settlement(record, endedAt, this.reservationId));
  }

  /** feeds the circuit and the live figures routing sorts by */
  private observe(o: { usage: IRUsage | null; finishReason: string | null; cancelled: boolean; firstTokenAt?: number | null; streamed: boolean }, endedAt: number) {
    const id = this.served!.endpoint.id;
    const { circuits, stats } = this.deps.router;
    if (o.cancelled) return;
    if (o.finishReason === "error") {
      circuits.failure(id);
      stats.record(id, false, null, null, endedAt);
      return;
    }
    circuits.success(id);
    const firstAt = o.firstTokenAt ?? endedAt;
    // the clock counts whole milliseconds: a faster answer still took some time, not none
    const seconds = Math.max(1, endedAt - (o.streamed ? firstAt : this.servedAt)) / 1000;
    const output = o.usage?.outputTokens ?? 0;
    const throughput = seconds > 0 && output > 0 ? output / seconds : null;
    stats.record(id, true, firstAt - this.servedAt, throughput, endedAt);
  }

  recordFailure(error: GatewayError): Promise<void> {
    return this.record({ usage: null, cost: ZERO_COST, streamed: this.ir?.stream ?? false, cancelled: error.status === 499, finishReason: "error", errorMessage: error.message });
  }
}

