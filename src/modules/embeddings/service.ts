import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import { type EndFacts, openGeneration, priceTokens, type RequestShape, routeCatalog, tokenWorstCase, withIdHeader } from "../../gateway/generation";
import { newGenerationId } from "../../gateway/ids";
import type { ProviderPreferences } from "../../gateway/routing/preferences";
import type { Principal } from "../../http/principal";
import type { IRUsage } from "../../ir/types";
import { embeddingsInput } from "../../observability/capture/request-content";
import { admissionRequest, countInputTokens } from "./input";
import type { EmbeddingsRequest, EmbeddingsResult } from "./model";
import { embeddingsOperation, embeddingsServed } from "./operation";
import { encodeVector } from "./vectors";

/**
 * POST /embeddings: an operation of the generation lifecycle, routed like chat over the model's
 * OpenAI-compatible endpoints; one generation record with api_type "embeddings".
 */
export async function createEmbeddings(
  ctx: AppContext,
  principal: Principal,
  body: EmbeddingsRequest,
  http: RequestShape,
): Promise<{ body: EmbeddingsResult; headers: Record<string, string> }> {
  const startedAt = ctx.clock();
  const id = newGenerationId(startedAt);
  const idHeader = { "x-generation-id": id };
  const model = ctx.catalog.getModel(body.model);
  if (!model) throw new GatewayError(404, `Model not found: ${body.model}`, undefined, idHeader);
  if (!model.outputModalities.includes("embeddings"))
    throw new GatewayError(400, `Model ${body.model} is not an embeddings model`, { field: "model" }, idHeader);

  const admissionIr = admissionRequest(body);
  const candidates = await routeCatalog(ctx, principal, {
    models: [{ ...model, endpoints: model.endpoints.filter(embeddingsServed) }],
    requested: model.id,
    prefs: (body.provider ?? {}) as ProviderPreferences,
    sentParameters: [],
    estimatedPromptTokens: 0,
    requestedOutputTokens: 0,
    modalities: new Set(["text"]),
  }).catch((err: unknown) => {
    throw withIdHeader(err, idHeader);
  });
  const generation = await openGeneration(ctx, {
    id,
    startedAt,
    apiType: "embeddings",
    principal,
    http,
    requestedModel: model.id,
    streamed: false,
    sessionId: body.session_id ?? null,
    externalUser: body.user ?? null,
    presetId: null,
    trace: body.trace ?? null,
    candidates,
    worstCase: tokenWorstCase(admissionIr),
    prompt: admissionIr,
    observe: { operation: "embeddings", input: () => embeddingsInput(body as Record<string, unknown>) },
  });

  const attempted = await generation.attempt(embeddingsOperation(body, ctx.config.routing.firstByteTimeoutMs));
  if (!attempted.ok) throw await generation.fail(attempted);

  const { candidate, value: result } = attempted;
  const promptTokens = result.promptTokens ?? (await countInputTokens(body.input));
  const usage: IRUsage = { inputTokens: promptTokens, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  const money = priceTokens(candidate, usage);
  // durable before the answer goes out (the writer retries a failed record in the background)
  const end: EndFacts = {
    usage,
    usageEstimated: result.promptTokens === null,
    cost: money.cost,
    cancelled: false,
    finishReason: null,
    nativeFinishReason: null,
    upstreamId: result.upstreamId,
    firstTokenAt: null,
    errorMessage: null,
  };
  await generation.settle(attempted, end);

  const format = body.encoding_format ?? "float";
  const { settlement } = money;
  const response: EmbeddingsResult = {
    id,
    object: "list",
    data: [...result.vectors]
      .sort((a, b) => a.index - b.index)
      .map((v) => ({ object: "embedding", embedding: encodeVector(v.embedding, format), index: v.index })),
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
