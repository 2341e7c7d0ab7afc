import { GatewayError } from "../errors";
import type { AttemptFailure } from "./attempt";

/**
 * The error the client gets when no candidate succeeded: a request error as the upstream
 * said it; 429 stays 429 with Retry-After; only first-byte timeouts: 408; otherwise 502
 * with the provider and its raw answer.
 */
export function finalError(failures: Array<{ failure: AttemptFailure; provider: string }>, headers: Record<string, string>): GatewayError {
  const last = failures[failures.length - 1];
  if (!last) return new GatewayError(503, "No provider could serve this request", undefined, headers);
  if (!last.failure.retryable) {
    return new GatewayError(last.failure.status, `Provider ${last.provider} rejected the request: ${last.failure.message}`, { provider_name: last.provider, raw: last.failure.raw ?? null }, headers);
  }
  if (failures.every((f) => f.failure.timedOut)) {
    return new GatewayError(408, `No provider answered within the first-byte timeout (${failures.map((f) => f.provider).join(", ")})`, { provider_name: last.provider }, headers);
  }
  const limited = [...failures].reverse().find((f) => f.failure.status === 429);
  if (limited && last.failure.status === 429) {
    const retryHeaders = limited.failure.retryAfter ? { ...headers, "retry-after": limited.failure.retryAfter } : headers;
    return new GatewayError(429, `Rate limited by ${limited.provider}: ${limited.failure.message}`, { provider_name: limited.provider, provider_code: "429", raw: limited.failure.raw ?? null }, retryHeaders);
  }
  return new GatewayError(502, `Provider ${last.provider} failed: ${last.failure.message}`, { provider_name: last.provider, raw: last.failure.raw ?? null }, headers);
}
