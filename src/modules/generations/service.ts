import { GatewayError } from "../../errors";
import type { Principal } from "../../http/principal";
import type { GenerationFeedbackRecord, GenerationRecord, Store } from "../../store/store";
import { nanosToUsd } from "../../billing/money";
import { isoTime } from "../../time";
import type { FeedbackInput, GenerationDataOut } from "./model";

export function renderGeneration(g: GenerationRecord, feedback: readonly GenerationFeedbackRecord[]): GenerationDataOut {
  const total = nanosToUsd(g.costNanos);
  return {
    id: g.id,
    upstream_id: g.upstreamId,
    created_at: isoTime(g.createdAt),
    model: g.model,
    api_type: g.apiType as GenerationDataOut["api_type"],
    provider_name: g.providerName,
    provider_responses: g.attempts.map((a) => ({ status: a.status, endpoint_id: a.endpoint, model_permaslug: a.model, provider_name: a.provider, latency: a.latency, is_byok: g.isByok })),
    router: null,
    origin: g.origin ?? "",
    http_referer: g.httpReferer,
    app_id: null,
    external_user: g.externalUser,
    user_agent: g.userAgent,
    preset_id: g.presetId,
    workspace_id: g.workspaceId,
    data_region: "global",
    is_byok: g.isByok,
    streamed: g.streamed,
    cancelled: g.cancelled,
    finish_reason: g.finishReason,
    native_finish_reason: g.nativeFinishReason,
    latency: g.latencyMs,
    generation_time: g.generationTimeMs,
    moderation_latency: null,
    tokens_prompt: g.tokensPrompt,
    tokens_completion: g.tokensCompletion,
    native_tokens_prompt: g.tokensPrompt,
    native_tokens_completion: g.tokensCompletion,
    native_tokens_completion_images: null,
    native_tokens_reasoning: g.tokensReasoning,
    native_tokens_cached: g.tokensCached,
    num_media_prompt: null,
    num_media_completion: null,
    num_input_audio_prompt: null,
    num_search_results: null,
    num_fetches: null,
    total_cost: total,
    usage: g.isByok ? 0 : total,
    upstream_inference_cost: g.isByok ? total : null,
    cache_discount: null,
    service_tier: null,
    web_search_engine: null,
    session_id: g.sessionId,
    time_to_first_token: g.timeToFirstTokenMs,
    usage_estimated: g.usageEstimated,
    native_tokens_cache_write: g.tokensCacheWrite,
    feedback: feedback.map((f) => ({ category: f.category, comment: f.comment, created_at: isoTime(f.createdAt) })),
  };
}

/** The key that made a generation and management keys may read it; anyone else gets 404. */
export async function getGeneration(store: Store, principal: Principal, id: string, pending?: { settled(): Promise<void> }): Promise<GenerationDataOut> {
  await pending?.settled();
  const g = await store.generations.get(id);
  if (!g || (!principal.isManagement && g.keyHash !== principal.key.hash)) throw new GatewayError(404, `Generation not found: ${id}`);
  return renderGeneration(g, await store.generations.feedback(id));
}

/**
 * Stores feedback on a generation. An inference key may rate the generations of its own
 * workspace, a management key any; any other id is 404, as if it did not exist.
 */
export async function submitFeedback(deps: { store: Store; clock: () => number; generations?: { settled(): Promise<void> } }, principal: Principal, body: FeedbackInput): Promise<{ data: { success: true } }> {
  // a generation whose answer just ended may still be in the writer's queue
  await deps.generations?.settled();
  const g = await deps.store.generations.get(body.generation_id);
  if (!g || (!principal.isManagement && g.workspaceId !== principal.workspace.id)) throw new GatewayError(404, `Generation not found: ${body.generation_id}`);
  await deps.store.generations.addFeedback({
    id: crypto.randomUUID(),
    generationId: g.id,
    keyHash: principal.key.hash,
    category: body.category,
    comment: body.comment ?? null,
    createdAt: deps.clock(),
  });
  return { data: { success: true } };
}
