import { GatewayError } from "../errors";
import type { RateLimits, RateUse } from "../shared-state";

/** A client refused for concurrency alone learns nothing of when a slot frees: it may look again in a second. */
const CONCURRENCY_RETRY_SECONDS = 1;

type Exceeded = "rpm" | "tpm" | "concurrency";

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The limits a refused request ran into, from what the counters held before it (the same
 * comparisons the counters made).
 */
export function exceededLimits(limits: RateLimits, used: RateUse, tokens: number): Exceeded[] {
  const over: Exceeded[] = [];
  if (limits.rpm !== null && used.requests + 1 > limits.rpm) over.push("rpm");
  if (limits.tpm !== null && used.tokens + tokens > limits.tpm) over.push("tpm");
  if (limits.concurrency !== null && used.inFlight + 1 > limits.concurrency) over.push("concurrency");
  return over;
}

/**
 * OpenAI's header names and value forms (`x-ratelimit-limit-requests`, a reset like `42s`), since
 * the clients of an OpenAI-compatible gateway already read them; one pair for concurrency in the
 * same style. Every limit the key has gets its headers, exceeded or not; `remaining` is what was
 * left before this request.
 */
export function rateLimitHeaders(limits: RateLimits, used: RateUse, resetMs: number, retryAfter: number): Record<string, string> {
  const reset = `${seconds(resetMs)}s`;
  const headers: Record<string, string> = { "retry-after": String(retryAfter) };
  if (limits.rpm !== null)
    Object.assign(headers, {
      "x-ratelimit-limit-requests": String(limits.rpm),
      "x-ratelimit-remaining-requests": String(Math.max(0, limits.rpm - used.requests)),
      "x-ratelimit-reset-requests": reset,
    });
  if (limits.tpm !== null)
    Object.assign(headers, {
      "x-ratelimit-limit-tokens": String(limits.tpm),
      "x-ratelimit-remaining-tokens": String(Math.max(0, limits.tpm - used.tokens)),
      "x-ratelimit-reset-tokens": reset,
    });
  if (limits.concurrency !== null)
    Object.assign(headers, {
      "x-ratelimit-limit-concurrency": String(limits.concurrency),
      "x-ratelimit-remaining-concurrency": String(Math.max(0, limits.concurrency - used.inFlight)),
    });
  return headers;
}

function describe(limit: Exceeded, limits: RateLimits, used: RateUse, tokens: number): string {
  if (limit === "rpm") return `${limits.rpm} requests per minute`;
  if (limit === "concurrency") return `${limits.concurrency} requests at once`;
  if (tokens > limits.tpm!)
    return `${limits.tpm} tokens per minute, less than this request's estimated ${tokens} prompt tokens (shorten the prompt or raise the limit)`;
  return `${limits.tpm} tokens per minute (${used.tokens} used, this request needs about ${tokens})`;
}

/** The 429 of a request over its key's rate limits, before anything went upstream. */
export function rateLimited(limits: RateLimits, used: RateUse, tokens: number, resetMs: number): GatewayError {
  const exceeded = exceededLimits(limits, used, tokens);
  const perMinute = exceeded.some((l) => l !== "concurrency");
  const retryAfter = perMinute ? seconds(resetMs) : CONCURRENCY_RETRY_SECONDS;
  const message = `Rate limit exceeded: this key allows ${exceeded.map((l) => describe(l, limits, used, tokens)).join(" and ")}; retry after ${retryAfter} s`;
  return new GatewayError(429, message, { limit_source: "key_rate_limit", exceeded }, rateLimitHeaders(limits, used, resetMs, retryAfter));
}
