import type { CostBreakdown } from "../billing/cost";
import { dayKey, windowKeys } from "../billing/windows";
import type { IRUsage } from "../ir/types";
import type { CapturedOutput } from "../observability/capture/captured-content";
import type { GenerationAttempt, GenerationRecord, SettledGeneration } from "../store/store";
import type { CachedAnswer } from "./response-cache/cached-answer";
import type { CacheStatus } from "./response-cache/directive";

/** What a generation is: the operations of the lifecycle, as `api_type` names them. */
export type ApiType = "completions" | "embeddings" | "video" | "image" | "tts" | "stt" | "rerank";

/**
 * Who asked, for what and how: everything a generation's record says of its request. The request
 * that admits a generation knows it; a job that ends it in another process (a video) stores it.
 */
export type GenerationIdentity = Readonly<{
  id: string;
  keyHash: string;
  workspaceId: string;
  userId: string | null;
  apiType: ApiType;
  requestedModel: string;
  streamed: boolean;
  sessionId: string | null;
  externalUser: string | null;
  presetId: string | null;
  trace: Record<string, unknown> | null;
  httpReferer: string | null;
  userAgent: string | null;
  /** the app's name: X-OpenRouter-Title, X-Title or Origin */
  appName: string | null;
  startedAt: number;
  /** the guardrail content filters that flagged the request; absent: none */
  guardrailFlags?: readonly string[];
  /** the response cache's verdict (absent: the cache was off or not asked), and the generation a hit served */
  cacheStatus?: CacheStatus | null;
  cacheSourceId?: string | null;
}>;

/** The app's name as OpenRouter's activity shows it: its title header, else its origin. */
export function appNameOf(headers: Headers): string {
  return headers.get("x-openrouter-title") ?? headers.get("x-title") ?? headers.get("origin") ?? "";
}

/** What the record names of the candidate that served. */
export type ServedFacts = Readonly<{ model: string; providerName: string; endpointId: string | null; isByok: boolean }>;

/** How the request ended. */
export type EndFacts = {
  usage: IRUsage | null;
  usageEstimated: boolean;
  cost: CostBreakdown;
  cancelled: boolean;
  finishReason: string | null;
  nativeFinishReason: string | null;
  upstreamId: string | null;
  firstTokenAt: number | null;
  /** when producing the answer began, where that is not its first token (a video: its submission) */
  generatingSince?: number;
  errorMessage: string | null;
  /** the answer's content, read only for a request with an ObservePlan */
  output?: CapturedOutput | null;
  /** media items the answer returned (images), where the operation makes them */
  mediaCount?: number;
  /** the whole answer, for the response cache: given only for a complete, successful answer (kept when the request asked for it) */
  keep?: CachedAnswer | null;
};

/** The one builder of a generation's record, for every operation. */
export function generationRecord(
  who: GenerationIdentity,
  served: ServedFacts | null,
  attempts: readonly GenerationAttempt[],
  end: EndFacts,
  endedAt: number,
): GenerationRecord {
  const generatingSince = end.generatingSince ?? end.firstTokenAt;
  return {
    id: who.id,
    keyHash: who.keyHash,
    workspaceId: who.workspaceId,
    userId: who.userId,
    apiType: who.apiType,
    requestedModel: who.requestedModel || null,
    model: served?.model ?? who.requestedModel,
    providerName: served?.providerName ?? null,
    endpointId: served?.endpointId ?? null,
    upstreamId: end.upstreamId,
    streamed: who.streamed,
    cancelled: end.cancelled,
    finishReason: end.finishReason,
    nativeFinishReason: end.nativeFinishReason,
    tokensPrompt: end.usage?.inputTokens ?? null,
    tokensCompletion: end.usage?.outputTokens ?? null,
    tokensCached: end.usage?.cachedTokens ?? null,
    tokensCacheWrite: end.usage?.cacheWriteTokens ?? null,
    tokensReasoning: end.usage?.reasoningTokens ?? null,
    usageEstimated: end.usageEstimated,
    costNanos: end.cost.total,
    promptCostNanos: end.cost.prompt,
    completionCostNanos: end.cost.completion,
    isByok: served?.isByok ?? false,
    latencyMs: endedAt - who.startedAt,
    generationTimeMs: generatingSince === null ? null : endedAt - generatingSince,
    timeToFirstTokenMs: end.firstTokenAt === null ? null : end.firstTokenAt - who.startedAt,
    attempts: [...attempts],
    sessionId: who.sessionId,
    externalUser: who.externalUser,
    presetId: who.presetId,
    trace: who.trace,
    httpReferer: who.httpReferer,
    userAgent: who.userAgent,
    origin: who.appName,
    errorMessage: end.errorMessage,
    numMediaCompletion: end.mediaCount ?? null,
    ...(who.guardrailFlags?.length ? { guardrailFlags: [...who.guardrailFlags] } : {}),
    createdAt: who.startedAt,
    ...(who.cacheStatus ? { cacheStatus: who.cacheStatus } : {}),
    ...(who.cacheSourceId ? { cacheSourceId: who.cacheSourceId } : {}),
  };
}

/** What the store commits for a finished request: the record, the spend it adds (in the windows of its end, as its activity) and the reservation it frees. */
export function settlement(record: GenerationRecord, endedAt: number, reservationId: string | null): SettledGeneration {
  return {
    record,
    day: dayKey(endedAt),
    reservationId,
    spend: record.costNanos > 0 ? { nanos: record.costNanos, byok: record.isByok, windows: windowKeys(endedAt) } : null,
  };
}
