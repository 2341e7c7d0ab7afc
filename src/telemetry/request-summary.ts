/**
 * What one finished request was, as the access log and the metrics see it. Inference requests
 * fill the generation fields when their record is committed; other routes leave them null.
 */
export type RequestSummary = {
  method: string;
  /** the route pattern (`/api/v1/keys/:hash`), not the path, so that ids never become labels */
  route: string;
  status: number;
  durationMs: number;
  /** the first 12 hex digits of the key's SHA-256 hash; null before authentication */
  keyHashPrefix: string | null;
  generationId: string | null;
  model: string | null;
  provider: string | null;
  streamed: boolean | null;
  finishReason: string | null;
  tokensPrompt: number | null;
  tokensCompletion: number | null;
  tokensReasoning: number | null;
  tokensCached: number | null;
  costUsd: number | null;
  timeToFirstTokenMs: number | null;
  attempts: number | null;
  /** the response cache's verdict on an answer (hit, miss, bypass); absent while the cache is off */
  cache?: string;
  /** a refused request's cause in short (refusal.ts: invalid_key, key_limit_reached, rate_limited, ...) */
  errorCode: string | null;
  /** a refused request's error message, cut short */
  reason: string | null;
};

export const KEY_HASH_PREFIX_LENGTH = 12;

/** A summary of a request that reached no generation (every generation field null). */
export function plainRequest(
  method: string,
  route: string,
  status: number,
  durationMs: number,
  keyHash: string | null,
  generationId: string | null = null,
): RequestSummary {
  return {
    method,
    route,
    status,
    durationMs,
    keyHashPrefix: keyHash ? keyHash.slice(0, KEY_HASH_PREFIX_LENGTH) : null,
    generationId,
    model: null,
    provider: null,
    streamed: null,
    finishReason: null,
    tokensPrompt: null,
    tokensCompletion: null,
    tokensReasoning: null,
    tokensCached: null,
    costUsd: null,
    timeToFirstTokenMs: null,
    attempts: null,
    errorCode: null,
    reason: null,
  };
}
