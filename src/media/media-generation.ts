import type { AppContext } from "../app-context";
import type { CostBreakdown } from "../billing/cost";
import { nanosToUsd } from "../billing/money";
import { sessionIdHeader } from "../formats/session-header";
import { type ApiType, type EndFacts, type Generation, openGeneration, type RequestShape, withIdHeader } from "../gateway/generation";
import { newGenerationId } from "../gateway/ids";
import type { PolicyContent } from "../gateway/policy";
import type { Principal } from "../http/principal";
import type { CapturedInput, CapturedOutput, ObservedOperation } from "../observability/capture/captured-content";
import type { MediaEndpoint, MediaModel } from "./media-catalog";
import type { MediaCandidate } from "./media-route";
import type { MediaCallerFields } from "./request-fields";

/**
 * The generation lifecycle as the four media operations use it: one id from the start (every
 * answer, a 404 included, carries it), admission over the media candidates with the operation's
 * worst case, and the end facts of an answer whose cost is counted in the operation's own units.
 */

export type MediaRequestStart = { id: string; startedAt: number; idHeader: Record<string, string> };

export function startMediaRequest(ctx: Pick<AppContext, "clock">): MediaRequestStart {
  const startedAt = ctx.clock();
  const id = newGenerationId(startedAt);
  return { id, startedAt, idHeader: { "x-generation-id": id } };
}

/** Runs the steps before admission; whatever they throw carries the generation id. */
export async function beforeAdmission<T>(start: MediaRequestStart, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw withIdHeader(err, start.idHeader);
  }
}

export type MediaAdmission<E extends MediaEndpoint, R> = {
  apiType: ApiType;
  operation: ObservedOperation;
  principal: Principal;
  http: RequestShape;
  model: MediaModel<E>;
  body: MediaCallerFields;
  candidates: MediaCandidate<E>[];
  /** the most a candidate may cost, nanos */
  worstCase: (candidate: MediaCandidate<E>) => number;
  input: () => CapturedInput;
  /** the request's text for the guardrails' content filters (src/media/media-content.ts); `generation.request` is what goes upstream */
  content: PolicyContent<R>;
};

/**
 * The policy step (the key's guardrails: candidates allowed, budgets, the request's text
 * screened), rate limits, then the worst case reserved against the key's limit, the workspace's
 * budgets and the guardrails' (402 when it cannot fit).
 */
export function openMediaGeneration<E extends MediaEndpoint, R>(
  ctx: AppContext,
  start: MediaRequestStart,
  a: MediaAdmission<E, R>,
): Promise<Generation<MediaCandidate<E>, R>> {
  return openGeneration(ctx, {
    id: start.id,
    startedAt: start.startedAt,
    apiType: a.apiType,
    principal: a.principal,
    http: a.http,
    requestedModel: a.model.id,
    streamed: false,
    sessionId: a.body.session_id ?? sessionIdHeader(a.http.headers) ?? null,
    externalUser: a.body.user ?? null,
    presetId: null,
    trace: a.body.trace ?? null,
    candidates: a.candidates,
    worstCase: a.worstCase,
    observe: { operation: a.operation, input: a.input },
    content: a.content,
  });
}

/** A cost that is all on one side of the record (media units are either the request's or the answer's). */
export const costOf = (nanos: number, side: "prompt" | "completion" | "other"): CostBreakdown => {
  const total = Math.round(nanos);
  return { total, prompt: side === "prompt" ? total : 0, completion: side === "completion" ? total : 0, other: side === "other" ? total : 0 };
};

/** USD as the answer's `usage.cost` and the record's `total_cost` show it. */
export const usdOf = (cost: CostBreakdown): number => nanosToUsd(cost.total);

/** How a served media request ended. */
export function mediaEnd(
  cost: CostBreakdown,
  facts: {
    upstreamId?: string | null;
    tokens?: { input: number; output: number } | null;
    mediaCount?: number;
    output?: CapturedOutput | null;
    cancelled?: boolean;
    errorMessage?: string | null;
    firstByteAt?: number | null;
  },
): EndFacts {
  const tokens = facts.tokens;
  return {
    usage: tokens ? { inputTokens: tokens.input, outputTokens: tokens.output, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } : null,
    usageEstimated: false,
    cost,
    cancelled: facts.cancelled ?? false,
    finishReason: null,
    nativeFinishReason: null,
    upstreamId: facts.upstreamId ?? null,
    firstTokenAt: facts.firstByteAt ?? null,
    errorMessage: facts.errorMessage ?? null,
    ...(facts.mediaCount !== undefined ? { mediaCount: facts.mediaCount } : {}),
    output: facts.output ?? null,
  };
}

/** What capture keeps of a media answer: its text (a transcript, a ranking) or its media as data URLs, one a line. */
export const capturedText = (text: string): CapturedOutput => ({ text, reasoning: "", toolCalls: [] });
