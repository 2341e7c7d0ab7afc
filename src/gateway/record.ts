import type { GenerationRecord, GenerationAttempt, SettledGeneration } from "../store/store";
import type { IRUsage } from "../ir/types";
import { windowKeys } from "../billing/windows";
import type { CostBreakdown } from "../billing/cost";

export type GenerationOutcome = {
  id: string;
  keyHash: string;
  workspaceId: string;
  userId: string | null;
  apiType: "completions" | "embeddings";
  requestedModel: string | null;
  model: string;
  providerName: string | null;
  endpointId: string | null;
  upstreamId: string | null;
  streamed: boolean;
  cancelled: boolean;
  finishReason: string | null;
  nativeFinishReason: string | null;
  usage: IRUsage | null;
  usageEstimated: boolean;
  cost: CostBreakdown;
  isByok: boolean;
  startedAt: number;
  endedAt: number;
  firstTokenAt: number | null;
  attempts: GenerationAttempt[];
  sessionId: string | null;
  externalUser: string | null;
  presetId: string | null;
  trace: Record<string, unknown> | null;
  headers: Headers;
  errorMessage: string | null;
};

export function generationRecord(o: GenerationOutcome): GenerationRecord {
  return {
    id: o.id,
    keyHash: o.keyHash,
    workspaceId: o.workspaceId,
    userId: o.userId,
    apiType: o.apiType,
    requestedModel: o.requestedModel,
    model: o.model,
    providerName: o.providerName,
    endpointId: o.endpointId,
    upstreamId: o.upstreamId,
    streamed: o.streamed,
    cancelled: o.cancelled,
    finishReason: o.finishReason,
    nativeFinishReason: o.nativeFinishReason,
    tokensPrompt: o.usage?.inputTokens ?? null,
    tokensCompletion: o.usage?.outputTokens ?? null,
    tokensCached: o.usage?.cachedTokens ?? null,
    tokensCacheWrite: o.usage?.cacheWriteTokens ?? null,
    tokensReasoning: o.usage?.reasoningTokens ?? null,
    usageEstimated: o.usageEstimated,
    costNanos: o.cost.total,
    promptCostNanos: o.cost.prompt,
    completionCostNanos: o.cost.completion,
    isByok: o.isByok,
    latencyMs: o.endedAt - o.startedAt,
    generationTimeMs: o.firstTokenAt === null ? null : o.endedAt - o.firstTokenAt,
    timeToFirstTokenMs: o.firstTokenAt === null ? null : o.firstTokenAt - o.startedAt,
    attempts: o.attempts,
    sessionId: o.sessionId,
    externalUser: o.externalUser,
    presetId: o.presetId,
    trace: o.trace,
    httpReferer: o.headers.get("http-referer"),
    userAgent: o.headers.get("user-agent"),
    origin: o.headers.get("x-openrouter-title") ?? o.headers.get("x-title") ?? o.headers.get("origin") ?? "",
    errorMessage: o.errorMessage,
    createdAt: o.startedAt,
  };
}

/** The answer could not be made durable: the client must not take it as delivered (the writer keeps retrying the record). */
export const NOT_RECORDED = "The gateway could not record this generation; retry the request";

/** What the store commits for a finished request: the record, the spend it adds (in the windows of its end) and the reservation it frees. */
export function settlement(record: GenerationRecord, endedAt: number, reservationId: string | null): SettledGeneration {
  return { record, reservationId, spend: record.costNanos > 0 ? { nanos: record.costNanos, byok: record.isByok, windows: windowKeys(endedAt) } : null };
}
