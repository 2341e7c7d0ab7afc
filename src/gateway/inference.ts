import type { Server } from "bun";
import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { EncodeContext, InboundCodec } from "../ir/codec";
import type { IRRequest, IRResult, IRStreamPart, IRUsage } from "../ir/types";
import { computeCost, type CostBreakdown } from "../billing/cost";
import { nanosToUsd } from "../billing/money";
import type { GenerationAttempt } from "../store/store";
import { attemptUpstream, type AttemptFailure, type AttemptSuccess } from "./attempt";
import { credentialedCandidates, requestedModels, type Candidate } from "./candidates";
import { inboundCodecs, upstreamCodecs, type InboundFormat } from "./codecs";
import { finalError } from "./final-error";
import { newGenerationId } from "./ids";
import { serviceMetadata, wantsServiceMetadata } from "./metadata";
import { generationRecord, persistGeneration } from "./record";
import { KEEPALIVE, pumpStream, type StreamEnd } from "./stream-session";
import { UsageTracker } from "./usage-tracker";

/** How long a streaming request's 200 is held back waiting for the upstream's first event. */
const HOLD_HEADERS_MS = 2000;
const KEEPALIVE_EVERY_MS = 5000;
const ZERO_COST: CostBreakdown = { total: 0, prompt: 0, completion: 0, other: 0 };

export type InferenceDeps = AppContext;

export type InferenceInput = {
  format: InboundFormat;
  body: unknown;
  principal: Principal;
  request: Request;
  server: Server<unknown> | null;
};

type Served = { success: AttemptSuccess; candidate: Candidate; abort: AbortController };

/** One inference request from decode to recorded generation. */
class InferenceRun {
  readonly id: string;
  readonly startedAt: number;
  readonly attempts: GenerationAttempt[] = [];
  readonly failures: Array<{ failure: AttemptFailure; provider: string }> = [];
  readonly inbound: InboundCodec;
  readonly wantsMetadata: boolean;
  ir!: IRRequest;
  requested = "";
  served: Candidate | null = null;

  constructor(
    readonly deps: InferenceDeps,
    readonly input: InferenceInput,
  ) {
    this.startedAt = deps.clock();
    this.id = newGenerationId(this.startedAt);
    this.inbound = inboundCodecs[input.format];
    this.wantsMetadata = wantsServiceMetadata(input.request.headers);
  }

  get idHeader(): Record<string, string> {
    return { "x-generation-id": this.id };
  }

  plan(): Candidate[] {
    this.ir = this.inbound.decodeRequest(this.input.body, this.input.request.headers);
    if (!this.ir.sessionId) {
      const header = this.input.request.headers.get("x-session-id");
      if (header && header.length > 256) throw new GatewayError(400, "Invalid header 'x-session-id': at most 256 characters");
      if (header) this.ir.sessionId = header;
    }
    const requested = this.ir.model || this.input.principal.workspace.defaultTextModel;
    if (!requested) throw new GatewayError(400, "Invalid field 'model': required (the workspace has no default model)", { field: "model" });
    this.requested = requested;
    const models = requestedModels(this.deps.catalog, requested, this.ir.models);
    const candidates = credentialedCandidates(models);
    if (candidates.length === 0) throw new GatewayError(503, `No provider can serve ${requested}: no endpoint has usable credentials`);
    return candidates;
  }

  /** Tries candidates in order until one produces output or fails for a reason another would share. */
  async attemptAll(candidates: Candidate[]): Promise<Served | GatewayError> {
    for (const candidate of candidates) {
      if (this.input.request.signal.aborted) break;
      const abort = new AbortController();
      const began = this.deps.clock();
      const codec = upstreamCodecs[candidate.endpoint.provider.api];
      const request = this.upstreamRequest(candidate);
      const outcome = await attemptUpstream({ candidate, codec, request, signal: this.input.request.signal, firstByteTimeoutMs: this.deps.config.routing.firstByteTimeoutMs }, abort);
      const status = outcome.ok ? outcome.status : outcome.status;
      this.attempts.push({ model: candidate.model.id, provider: candidate.endpoint.provider.slug, endpoint: candidate.endpoint.id, status, latency: this.deps.clock() - began });
      if (outcome.ok) {
        this.served = candidate;
        return { success: outcome, candidate, abort };
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

  priceUsage(usage: IRUsage): CostBreakdown {
    if (!this.served) return ZERO_COST;
    const cost = computeCost(this.served.endpoint.pricing, usage);
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

  record(o: { usage: IRUsage | null; cost: CostBreakdown; streamed: boolean; cancelled: boolean; finishReason: string | null; nativeFinishReason?: string | null; upstreamId?: string | null; firstTokenAt?: number | null; errorMessage?: string | null }) {
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
      usageEstimated: false,
      cost: o.cost,
      isByok: this.served?.isByok ?? false,
      startedAt: this.startedAt,
      endedAt,
      firstTokenAt: o.firstTokenAt ?? null,
      attempts: this.attempts,
      sessionId: this.ir?.sessionId ?? null,
      externalUser: this.ir?.user ?? null,
      presetId: null,
      trace: (this.ir?.trace as Record<string, unknown> | undefined) ?? null,
      headers: this.input.request.headers,
      errorMessage: o.errorMessage ?? null,
    });
    try {
      persistGeneration(this.deps.store, record, endedAt);
    } catch (err) {
      this.deps.logger.error("failed to record generation", { id: this.id, error: String(err) });
    }
  }

  recordFailure(error: GatewayError) {
    this.record({ usage: null, cost: ZERO_COST, streamed: this.ir?.stream ?? false, cancelled: error.status === 499, finishReason: "error", errorMessage: error.message });
  }
}

export async function runInference(deps: InferenceDeps, input: InferenceInput): Promise<Response> {
  const run = new InferenceRun(deps, input);
  let candidates: Candidate[];
  try {
    candidates = run.plan();
  } catch (err) {
    if (err instanceof GatewayError) throw new GatewayError(err.status, err.message, err.metadata, { ...err.headers, ...run.idHeader });
    throw err;
  }
  // generations may take minutes: Bun's idle timeout must not cut this request
  input.server?.timeout(input.request, 0);
  const attempt = run.attemptAll(candidates);
  if (!run.ir.stream) return respondJson(run, await attempt);
  return respondStream(run, attempt);
}

function respondJson(run: InferenceRun, outcome: Served | GatewayError): Response {
  if (outcome instanceof GatewayError) {
    run.recordFailure(outcome);
    throw outcome;
  }
  if (outcome.success.kind !== "result") throw new Error("expected a whole result");
  const result: IRResult = outcome.success.result;
  const cost = run.priceUsage(result.usage);
  const ctx = run.encodeContext();
  ctx.serviceMetadata = run.metadata();
  const body = run.inbound.encodeResult(result, ctx);
  run.record({ usage: result.usage, cost, streamed: false, cancelled: false, finishReason: result.finishReason, nativeFinishReason: result.nativeFinishReason, upstreamId: result.id, firstTokenAt: null });
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", ...run.idHeader } });
}

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" };

async function respondStream(run: InferenceRun, attempt: Promise<Served | GatewayError>): Promise<Response> {
  const held = await Promise.race([attempt, Bun.sleep(HOLD_HEADERS_MS).then(() => "waiting" as const)]);
  if (held instanceof GatewayError) {
    run.recordFailure(held);
    throw held;
  }
  let cancelled = false;
  let upstreamAbort: AbortController | null = held === "waiting" ? null : held.abort;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (chunk: Uint8Array) => {
        if (cancelled) return false;
        try {
          controller.enqueue(chunk);
          return true;
        } catch {
          return false;
        }
      };
      let keepalive: Timer | null = null;
      let served: Served | GatewayError;
      if (held === "waiting") {
        write(KEEPALIVE);
        keepalive = setInterval(() => write(KEEPALIVE), KEEPALIVE_EVERY_MS);
        served = await attempt;
        clearInterval(keepalive);
      } else served = held;
      if (served instanceof GatewayError) {
        run.recordFailure(served);
        write(new TextEncoder().encode(run.inbound.createStreamEncoder(run.encodeContext()).encode({ type: "error", status: served.status, message: served.message })));
      } else {
        upstreamAbort = served.abort;
        if (cancelled) served.abort.abort();
        const end = await streamServed(run, served, write, () => cancelled);
        if (end.cancelled) served.abort.abort();
      }
      if (!cancelled) controller.close();
    },
    cancel() {
      // the client went away: stop paying for tokens nobody reads
      cancelled = true;
      upstreamAbort?.abort();
    },
  });
  run.input.request.signal.addEventListener("abort", () => {
    cancelled = true;
    upstreamAbort?.abort();
  });
  return new Response(body, { headers: { ...SSE_HEADERS, ...run.idHeader } });
}

async function streamServed(run: InferenceRun, served: Served, write: (c: Uint8Array) => boolean, isCancelled: () => boolean): Promise<StreamEnd> {
  if (served.success.kind !== "stream") throw new Error("expected a stream");
  const ctx = run.encodeContext();
  const usage = new UsageTracker();
  let cost = ZERO_COST;
  const end = await pumpStream({
    upstream: served.success,
    encoder: run.inbound.createStreamEncoder(ctx),
    write,
    usage,
    isCancelled,
    clock: run.deps.clock,
    onFinish(part: Extract<IRStreamPart, { type: "finish" }>) {
      usage.merge(part.usage);
      part.usage = { ...usage.usage };
      cost = run.priceUsage(part.usage);
      ctx.serviceMetadata = run.metadata();
    },
  });
  if (!end.finished || end.finishReason === "error") cost = run.priceUsage(usage.usage);
  run.record({
    usage: usage.usage,
    cost,
    streamed: true,
    cancelled: end.cancelled,
    finishReason: end.cancelled ? "cancelled" : end.finishReason,
    nativeFinishReason: end.nativeFinishReason,
    upstreamId: end.upstreamId,
    firstTokenAt: end.firstTokenAt,
    errorMessage: end.errorMessage,
  });
  return end;
}
