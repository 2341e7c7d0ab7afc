import { GatewayError } from "../errors";
import type { ClassifiedFailure } from "./upstream-failure";

/**
 * The error the client gets when no candidate succeeded: a request error as the upstream
 * said it; only first-byte timeouts: 408; otherwise the last meaningful answer (one with an
 * HTTP status; a refused connection or a timeout after it says less): 429 stays 429 with its
 * Retry-After, anything else is a 502 with that provider and its raw answer.
 */
export function finalError(failures: readonly ClassifiedFailure[], headers: Record<string, string>): GatewayError {
  const last = failures[failures.length - 1];
  if (!last) return new GatewayError(503, "No provider could serve this request", undefined, headers);
  if (!last.retryable) {
    return new GatewayError(
      last.failure.status,
      `Provider ${last.provider} rejected the request: ${last.failure.message}`,
      { provider_name: last.provider, raw: last.failure.raw ?? null },
      headers,
    );
  }
  if (failures.every((f) => f.failure.timedOut)) {
    return new GatewayError(
      408,
      `No provider answered within the first-byte timeout (${failures.map((f) => f.provider).join(", ")})`,
      { provider_name: last.provider },
      headers,
    );
  }
  const meaningful = [...failures].reverse().find((f) => f.failure.status > 0 && !f.failure.timedOut) ?? last;
  const { failure, provider } = meaningful;
  if (failure.status === 429) {
    // an upstream that gave only milliseconds: whole seconds, rounded up, as Retry-After counts them
    const retryAfter = failure.retryAfter || (failure.retryAfterMs === undefined ? undefined : String(Math.ceil(failure.retryAfterMs / 1000)));
    const retryHeaders = retryAfter ? { ...headers, "retry-after": retryAfter } : headers;
    return new GatewayError(
      429,
      `Rate limited by ${provider}: ${failure.message}`,
      { provider_name: provider, provider_code: "429", raw: failure.raw ?? null },
      retryHeaders,
    );
  }
  return new GatewayError(502, `Provider ${provider} failed: ${failure.message}`, { provider_name: provider, raw: failure.raw ?? null }, headers);
}
