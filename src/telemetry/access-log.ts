import type { Logger } from "../logger";
import type { RequestSummary } from "./request-summary";

/** One JSON line per request at info: what an operator greps for, with no null noise. */
export function logRequest(logger: Logger, r: RequestSummary): void {
  const all: Record<string, unknown> = {
    method: r.method,
    route: r.route,
    status: r.status,
    duration_ms: Math.round(r.durationMs * 10) / 10,
    key: r.keyHashPrefix,
    generation_id: r.generationId,
    model: r.model,
    provider: r.provider,
    streamed: r.streamed,
    finish_reason: r.finishReason,
    tokens_prompt: r.tokensPrompt,
    tokens_completion: r.tokensCompletion,
    cost: r.costUsd,
    ttft_ms: r.timeToFirstTokenMs,
    attempts: r.attempts,
    cache: r.cache ?? null,
    error_code: r.errorCode,
    reason: r.reason,
  };
  const fields: Record<string, unknown> = {};
  for (const name in all) if (all[name] !== null) fields[name] = all[name];
  logger.info("request", fields);
}
