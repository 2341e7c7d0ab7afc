import { nanosToUsd } from "../../billing/money";
import { badRequest, GatewayError } from "../../errors";
import type { Principal } from "../../http/principal";
import type { GenerationCursor, GenerationFeedbackRecord, GenerationFilter, GenerationRecord, Store } from "../../store/store";
import { isoTime } from "../../time";
import type { FeedbackInput, GenerationDataOut, ListedGenerationOut, ListGenerationsQuery } from "./model";

type ListGenerationsInput = typeof ListGenerationsQuery.static;

export function renderGeneration(g: GenerationRecord, feedback: readonly GenerationFeedbackRecord[]): GenerationDataOut {
  const total = nanosToUsd(g.costNanos);
  return {
    id: g.id,
    upstream_id: g.upstreamId,
    created_at: isoTime(g.createdAt),
    model: g.model,
    api_type: g.apiType as GenerationDataOut["api_type"],
    provider_name: g.providerName,
    provider_responses: g.attempts.map((a) => ({
      status: a.status,
      endpoint_id: a.endpoint,
      model_permaslug: a.model,
      provider_name: a.provider,
      latency: a.latency,
      is_byok: g.isByok,
    })),
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
    num_media_completion: g.numMediaCompletion ?? null,
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
    response_cache_source_id: g.cacheSourceId ?? null,
    time_to_first_token: g.timeToFirstTokenMs,
    usage_estimated: g.usageEstimated,
    native_tokens_cache_write: g.tokensCacheWrite,
    cache_status: (g.cacheStatus ?? null) as GenerationDataOut["cache_status"],
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
export async function submitFeedback(
  deps: { store: Store; clock: () => number; generations?: { settled(): Promise<void> } },
  principal: Principal,
  body: FeedbackInput,
): Promise<{ data: { success: true } }> {
  // a generation whose answer just ended may still be in the writer's queue
  await deps.generations?.settled();
  const g = await deps.store.generations.get(body.generation_id);
  if (!g || (!principal.isManagement && g.workspaceId !== principal.workspace.id)) throw new GatewayError(404, `Generation not found: ${body.generation_id}`);
  const createdAt = deps.clock();
  await deps.store.generations.addFeedback({
    // time-ordered, with a counter within one millisecond: feedback of the same millisecond still lists oldest first (ties go by id)
    id: Bun.randomUUIDv7(undefined, createdAt),
    generationId: g.id,
    keyHash: principal.key.hash,
    category: body.category,
    comment: body.comment ?? null,
    createdAt,
  });
  return { data: { success: true } };
}

const DEFAULT_PAGE = 50;

/** A page position the client carries between calls, opaque to it. */
function encodeCursor(c: GenerationCursor): string {
  return Buffer.from(`${c.createdAt}:${c.id}`).toString("base64url");
}

function decodeCursor(cursor: string): GenerationCursor {
  const text = Buffer.from(cursor, "base64url").toString();
  const colon = text.indexOf(":");
  const createdAt = Number(text.slice(0, colon));
  if (colon < 1 || !Number.isSafeInteger(createdAt) || colon === text.length - 1)
    throw badRequest("Invalid query parameter 'cursor': not a next_cursor this API gave", { field: "cursor" });
  return { createdAt, id: text.slice(colon + 1) };
}

function timeOf(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest(`Invalid query parameter '${field}': expected an ISO 8601 date-time`, { field });
  return ms;
}

/** The store's filter of a listing's query; a time that is not ISO 8601 is a 400 naming it. */
export function generationFilter(q: Omit<ListGenerationsInput, "limit" | "cursor">): GenerationFilter {
  return {
    workspaceId: q.workspace_id,
    keyHash: q.api_key_hash,
    model: q.model,
    provider: q.provider,
    status: q.status,
    from: timeOf(q.from, "from"),
    to: timeOf(q.to, "to"),
    flagged: q.flagged === undefined ? undefined : q.flagged === "true",
  };
}

/** Generations newest first, filtered, one keyset page at a time (management keys: the whole organization). */
export async function listGenerations(
  deps: { store: Store; generations?: { settled(): Promise<void> } },
  q: ListGenerationsInput,
): Promise<{ data: ListedGenerationOut[]; next_cursor: string | null }> {
  const { records, next_cursor } = await listGenerationRecords(deps, q);
  return { data: records.map(renderListed), next_cursor };
}

/** A listed generation as GET /generations shows it (its feedback is read with the record alone). */
export function renderListed(g: GenerationRecord): ListedGenerationOut {
  const { feedback: _feedback, ...listed } = renderGeneration(g, []);
  return { ...listed, guardrail_flags: [...(g.guardrailFlags ?? [])] };
}

/** The records of one page of a listing, and the cursor of the next. */
export async function listGenerationRecords(
  deps: { store: Store; generations?: { settled(): Promise<void> } },
  q: ListGenerationsInput,
): Promise<{ records: GenerationRecord[]; next_cursor: string | null }> {
  const filter = generationFilter(q);
  const limit = q.limit ?? DEFAULT_PAGE;
  const before = q.cursor === undefined ? null : decodeCursor(q.cursor);
  await deps.generations?.settled();
  // one more than the page tells whether another page follows
  const rows = await deps.store.generations.list(filter, before, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { records: page, next_cursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
}
