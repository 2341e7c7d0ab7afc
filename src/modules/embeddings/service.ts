import type { AppContext } from "../../app-context";
import { admit } from "../../billing/admission";
import { computeCost, type CostBreakdown } from "../../billing/cost";
import { nanosToUsd } from "../../billing/money";
import { GatewayError } from "../../errors";
import type { AttemptFailure } from "../../gateway/attempt";
import type { Candidate } from "../../gateway/candidates";
import { credentialResolver } from "../../gateway/credentials";
import { finalError } from "../../gateway/final-error";
import { newGenerationId } from "../../gateway/ids";
import { ZERO_COST } from "../../gateway/inference-run";
import { generationRecord, NOT_RECORDED, settlement } from "../../gateway/record";
import { parseRetryAfter } from "../../gateway/routing/circuit";
import { planRoute } from "../../gateway/routing/plan";
import type { ProviderPreferences } from "../../gateway/routing/preferences";
import type { Principal } from "../../http/principal";
import type { IRUsage } from "../../ir/types";
import type { GenerationAttempt } from "../../store/store";
import { admissionRequest, countInputTokens } from "./input";
import type { EmbeddingsRequest, EmbeddingsResult } from "./model";
import { callEmbeddings, type UpstreamEmbeddings } from "./upstream";
import { encodeVector } from "./vectors";

type Outcome = { usage: IRUsage | null; cost: CostBreakdown; served: Candidate | null; upstreamId: string | null; error: string | null; cancelled: boolean; estimated: boolean };

/**
 * POST /embeddings: routed like chat (same planner, admission, fallbacks, circuits, live stats)
 * over the model's OpenAI-compatible endpoints; one generation record with api_type "embeddings".
 */
export async function createEmbeddings(ctx: AppContext, principal: Principal, body: EmbeddingsRequest, request: Request): Promise<{ body: EmbeddingsResult; headers: Record<string, string> }> {
  const startedAt = ctx.clock();
  const id = newGenerationId(startedAt);
  const idHeader = { "x-generation-id": id };
  const model = ctx.catalog.getModel(body.model);
  if (!model) throw new GatewayError(404, `Model not found: ${body.model}`, undefined, idHeader);
  if (!model.outputModalities.includes("embeddings")) throw new GatewayError(400, `Model ${body.model} is not an embeddings model`, { field: "model" }, idHeader);

  const { router } = ctx;
  const credentials = await credentialResolver(ctx, principal);
  const ir = admissionRequest(body);
  let candidates: Candidate[];
  let reservationId: string | null;
  try {
    const planned = planRoute({
      models: [{ ...model, endpoints: model.endpoints.filter((e) => e.provider.api !== "anthropic-messages") }],
      requested: model.id,
      prefs: (body.provider ?? {}) as ProviderPreferences,
      sentParameters: [],
      estimatedPromptTokens: 0,
      requestedOutputTokens: 0,
      modalities: new Set(["text"]),
      credentials,
      workspaceSort: principal.workspace.defaultProviderSort,
      stats: (e) => router.stats.stats(e),
      health: (e) => router.circuits.health(e),
      random: router.random,
    });
    const admission = await admit(ctx.store, principal, planned, ir, id, startedAt, ctx.reservationLease);
    candidates = admission.candidates;
    reservationId = admission.reservationId;
  } catch (err) {
    if (err instanceof GatewayError) throw new GatewayError(err.status, err.message, err.metadata, { ...err.headers, ...idHeader });
    throw err;
  }

  const attempts: GenerationAttempt[] = [];
  const failures: Array<{ failure: AttemptFailure; provider: string }> = [];
  let served: { candidate: Candidate; result: UpstreamEmbeddings } | null = null;
  for (const candidate of candidates) {
    if (request.signal.aborted) break;
    const began = ctx.clock();
    const outcome = await callEmbeddings(candidate, body, request.signal, ctx.config.routing.firstByteTimeoutMs);
    const latency = ctx.clock() - began;
    attempts.push({ model: model.id, provider: candidate.endpoint.provider.slug, endpoint: candidate.endpoint.id, status: outcome.status, latency });
    if (outcome.ok) {
      router.circuits.success(candidate.endpoint.id);
      router.stats.record(candidate.endpoint.id, true, latency, null);
      served = { candidate, result: outcome };
      break;
    }
    // a client that went away says nothing about the endpoint
    if (request.signal.aborted) break;
    failures.push({ failure: outcome, provider: candidate.endpoint.provider.slug });
    if (!outcome.retryable) break;
    router.circuits.failure(candidate.endpoint.id, parseRetryAfter(outcome.retryAfter, ctx.clock()));
    router.stats.record(candidate.endpoint.id, false, null, null);
  }

  const record = (o: Outcome) =>
    persist(ctx, principal, request, { id, startedAt, model: model.id, attempts, reservationId, sessionId: body.session_id ?? null, user: body.user ?? null, trace: body.trace ?? null }, o);

  if (!served) {
    const error = request.signal.aborted ? new GatewayError(499, "Client closed the request", undefined, idHeader) : finalError(failures, idHeader);
    await record({ usage: null, cost: ZERO_COST, served: null, upstreamId: null, error: error.message, cancelled: error.status === 499, estimated: false }).catch(() => {});
    throw error;
  }

  const { candidate, result } = served;
  const estimated = result.promptTokens === null;
  const promptTokens = result.promptTokens ?? countInputTokens(body.input);
  const usage: IRUsage = { inputTokens: promptTokens, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  const cost = computeCost(candidate.endpoint.pricing, usage);
  // durable before the answer goes out (the writer retries a failed record in the background)
  await record({ usage, cost, served: candidate, upstreamId: result.upstreamId, error: null, cancelled: false, estimated }).catch(() => {
    throw new GatewayError(503, NOT_RECORDED, undefined, idHeader);
  });

  const format = body.encoding_format ?? "float";
  const response: EmbeddingsResult = {
    id,
    object: "list",
    data: [...result.vectors].sort((a, b) => a.index - b.index).map((v) => ({ object: "embedding", embedding: encodeVector(v.embedding, format), index: v.index })),
    model: model.id,
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      cost: nanosToUsd(cost.total),
      is_byok: candidate.isByok,
      cost_details: {
        upstream_inference_cost: candidate.isByok ? nanosToUsd(cost.total) : null,
        upstream_inference_prompt_cost: nanosToUsd(cost.prompt),
        upstream_inference_completions_cost: 0,
      },
    },
  };
  return { body: response, headers: idHeader };
}

type RunInfo = { id: string; startedAt: number; model: string; attempts: GenerationAttempt[]; reservationId: string | null; sessionId: string | null; user: string | null; trace: Record<string, unknown> | null };

function persist(ctx: AppContext, principal: Principal, request: Request, run: RunInfo, o: Outcome): Promise<void> {
  const endedAt = ctx.clock();
  const record = generationRecord({
    id: run.id,
    keyHash: principal.key.hash,
    workspaceId: principal.workspace.id,
    userId: principal.user?.id ?? null,
    apiType: "embeddings",
    requestedModel: run.model,
    model: run.model,
    providerName: o.served?.endpoint.provider.slug ?? null,
    endpointId: o.served?.endpoint.id ?? null,
    upstreamId: o.upstreamId,
    streamed: false,
    cancelled: o.cancelled,
    finishReason: o.error ? "error" : null,
    nativeFinishReason: null,
    usage: o.usage,
    usageEstimated: o.estimated,
    cost: o.cost,
    isByok: o.served?.isByok ?? false,
    startedAt: run.startedAt,
    endedAt,
    firstTokenAt: null,
    attempts: run.attempts,
    sessionId: run.sessionId,
    externalUser: run.user,
    presetId: null,
    trace: run.trace,
    headers: request.headers,
    errorMessage: o.error,
  });
  return ctx.generations.commit(settlement(record, endedAt, run.reservationId));
}
