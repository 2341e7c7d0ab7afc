import type { GenerationRecord } from "../../store/store";
import type { ObservedAttempt, ObservedGeneration } from "../contract";
import type { CapturedInput, CapturedOutput, ObservedOperation } from "./captured-content";

export type ObservedParts = Readonly<{
  operation: ObservedOperation;
  keyName: string | null;
  /** the serving provider's display name (the record keeps its slug) */
  providerName: string | null;
  input: CapturedInput | null;
  output: CapturedOutput | null;
}>;

const usd = (nanos: number) => nanos / 1e9;

/** A generation's status as the generations list filters it. */
function statusOf(r: GenerationRecord): ObservedGeneration["status"] {
  if (r.cancelled) return "cancelled";
  return r.finishReason === "error" || r.errorMessage !== null ? "error" : "success";
}

/**
 * The record keeps each attempt's latency, not its start: attempts run one after another from the
 * generation's start, so each starts when the ones before it ended.
 */
function attemptsOf(r: GenerationRecord): ObservedAttempt[] {
  let at = r.createdAt;
  return r.attempts.map((a) => {
    const attempt = { provider: a.provider, model: a.model, endpoint: a.endpoint, status: a.status, startedAt: at, latencyMs: a.latency };
    at += a.latency;
    return attempt;
  });
}

/** What a destination is sent of a recorded generation (the contract's ObservedGeneration). */
export function observedGeneration(r: GenerationRecord, parts: ObservedParts): ObservedGeneration {
  return {
    id: r.id,
    operation: parts.operation,
    workspaceId: r.workspaceId,
    keyHash: r.keyHash,
    keyName: parts.keyName,
    userId: r.userId,
    requestedModel: r.requestedModel,
    model: r.model,
    providerSlug: r.providerName,
    providerName: parts.providerName,
    streamed: r.streamed,
    cancelled: r.cancelled,
    finishReason: r.finishReason,
    status: statusOf(r),
    errorMessage: r.errorMessage,
    tokens: { prompt: r.tokensPrompt, completion: r.tokensCompletion, cached: r.tokensCached, cacheWrite: r.tokensCacheWrite, reasoning: r.tokensReasoning },
    cost: { total: usd(r.costNanos), input: usd(r.promptCostNanos), output: usd(r.completionCostNanos) },
    isByok: r.isByok,
    startedAt: r.createdAt,
    endedAt: r.createdAt + (r.latencyMs ?? 0),
    timeToFirstTokenMs: r.timeToFirstTokenMs,
    sessionId: r.sessionId,
    externalUser: r.externalUser,
    trace: r.trace,
    attempts: attemptsOf(r),
    input: parts.input,
    output: parts.output ? { text: parts.output.text, toolCalls: parts.output.toolCalls } : null,
  };
}
