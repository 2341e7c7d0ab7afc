import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import { charge } from "../../gateway/charge";
import { attemptWithFallback, type NotServed } from "../../gateway/fallback";
import { newGenerationId } from "../../gateway/ids";
import { admittedCandidates, withIdHeader } from "../../gateway/plan";
import { commitGeneration, NOT_RECORDED, recordNotServed, type RequestFacts } from "../../gateway/record";
import type { ProviderPreferences } from "../../gateway/routing/preferences";
import type { Principal } from "../../http/principal";
import type { IRUsage } from "../../ir/types";
import { admissionRequest, countInputTokens } from "./input";
import type { EmbeddingsRequest, EmbeddingsResult } from "./model";
import { embeddingsOperation } from "./operation";
import { encodeVector } from "./vectors";
import { forwardTargets, NO_TARGETS, observePlan } from "../../observability/capture/observe-plan";
import { embeddingsInput } from "../../observability/capture/request-content";

/**
 * POST /embeddings: routed like chat (same planner, admission and fallback loop) over the
 * model's OpenAI-compatible endpoints; one generation record with api_type "embeddings".
 */
export async function createEmbeddings(ctx: AppContext, principal: Principal, body: EmbeddingsRequest, request: Request): Promise<{ body: EmbeddingsResult; headers: Record<string, string> }> {
  const startedAt = ctx.clock();
  const id = newGenerationId(startedAt);
  const idHeader = { "x-generation-id": id };
  const model = ctx.catalog.getModel(body.model);
  if (!model) throw new GatewayError(404, `Model not found: ${body.model}`, undefined, idHeader);
  if (!model.outputModalities.includes("embeddings")) throw new GatewayError(400, `Model ${body.model} is not an embeddings model`, { field: "model" }, idHeader);

  const admissionIr = admissionRequest(body);
  const route = {
    models: [{ ...model, endpoints: model.endpoints.filter((e) => e.provider.api !== "anthropic-messages") }],
    requested: model.id,
    prefs: (body.provider ?? {}) as ProviderPreferences,
    sentParameters: [],
    estimatedPromptTokens: 0,
    requestedOutputTokens: 0,
    modalities: new Set(["text"]),
  };
  const { candidates, reservationId, rateLimit } = await admittedCandidates(ctx, principal, route, admissionIr, id).catch((err: unknown) => {
    throw withIdHeader(err, idHeader);
  });
  ctx.telemetry.claim(request);
  const pendingTargets = forwardTargets(ctx.destinationTargets, principal.workspace);
  const targets = pendingTargets ? await pendingTargets : NO_TARGETS;
  const facts: RequestFacts = {
    id,
    route: new URL(request.url).pathname,
    startedAt,
    principal,
    headers: request.headers,
    apiType: "embeddings",
    requestedModel: model.id,
    streamed: false,
    sessionId: body.session_id ?? null,
    externalUser: body.user ?? null,
    presetId: null,
    trace: body.trace ?? null,
    reservationId,
    rateLimit,
    observe: observePlan(principal.workspace, principal.key, { id, sessionId: body.session_id ?? null, trace: body.trace ?? null }, "embeddings", () => embeddingsInput(body as Record<string, unknown>), targets),
  };

  const attempted = await attemptWithFallback(ctx, { candidates, signal: request.signal, headers: idHeader }, embeddingsOperation(body, ctx.config.routing.firstByteTimeoutMs)).catch(
    (err: unknown): NotServed => {
      // an unexpected fault still ends as a recorded failure, so the reservation and rate slot are released
      ctx.logger.error("embeddings attempt failed unexpectedly", { id, error: String(err), stack: (err as Error)?.stack });
      return { ok: false, error: new GatewayError(500, "Internal error while calling the provider", undefined, idHeader), attempts: [] };
    },
  );
  if (!attempted.ok) throw await recordNotServed(ctx, facts, attempted);

  const { candidate, value: result } = attempted;
  const promptTokens = result.promptTokens ?? (await countInputTokens(body.input));
  const usage: IRUsage = { inputTokens: promptTokens, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  const money = charge(candidate.endpoint.pricing, candidate.isByok, usage, 0);
  // durable before the answer goes out (the writer retries a failed record in the background)
  const end = { usage, usageEstimated: result.promptTokens === null, cost: money.cost, cancelled: false, finishReason: null, nativeFinishReason: null, upstreamId: result.upstreamId, firstTokenAt: null, errorMessage: null };
  await commitGeneration(ctx, facts, attempted, attempted.attempts, end).catch(() => {
    throw new GatewayError(503, NOT_RECORDED, undefined, idHeader);
  });

  const format = body.encoding_format ?? "float";
  const { settlement } = money;
  const response: EmbeddingsResult = {
    id,
    object: "list",
    data: [...result.vectors].sort((a, b) => a.index - b.index).map((v) => ({ object: "embedding", embedding: encodeVector(v.embedding, format), index: v.index })),
    model: model.id,
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      cost: settlement.cost,
      is_byok: settlement.isByok,
      cost_details: {
        upstream_inference_cost: settlement.costDetails.upstreamInferenceCost,
        upstream_inference_prompt_cost: settlement.costDetails.upstreamInferencePromptCost,
        upstream_inference_completions_cost: 0,
      },
    },
  };
  return { body: response, headers: idHeader };
}
