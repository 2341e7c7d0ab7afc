import { upstreamFetch } from "../../providers/transport";
import { retryAfterSeconds } from "../../retry-after";
import type { Failed, Transient, VideoErrorCode } from "./adapter";

/** An upstream answer of any status, its body parsed as JSON when it is JSON (else `undefined`). */
export type UpstreamResponse = { kind: "response"; status: number; headers: Headers; json: unknown; text: string };

export type UpstreamRequest = { url: string; method: "GET" | "POST" | "PUT"; headers: Record<string, string>; body?: unknown };

/** Without a limit of its own, an upstream that never answers would hold the lifecycle's step until its own signal fires. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * One request through the upstream transport (upstreamFetch), read whole, with a time limit.
 * Never throws: no answer at all (network error, timeout, abort) is Transient.
 */
export async function callUpstream(
  request: UpstreamRequest,
  signal: AbortSignal,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): Promise<UpstreamResponse | Transient> {
  const limited = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  try {
    const response = await upstreamFetch({ ...request, signal: limited }, fetchImpl);
    const text = await response.text();
    return { kind: "response", status: response.status, headers: response.headers, json: parseJson(text), text };
  } catch (error) {
    if (limited.aborted) return { kind: "retry", reason: signal.aborted ? "aborted" : `no answer within ${timeoutMs} ms` };
    return { kind: "retry", reason: `network error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A non-2xx answer: 408, 425, 429 and 5xx are worth trying again (with the upstream's Retry-After);
 * other 4xx are final. 401/403 are the provider key's fault, not the caller's, hence upstream_error.
 */
export function outcomeOfHttpError(response: UpstreamResponse, message: string, now = Date.now()): Transient | Failed {
  const { status } = response;
  if (status === 408 || status === 425 || status === 429 || status >= 500) {
    const retryAfter = retryAfterSeconds(response.headers.get("retry-after"), now);
    return { kind: "retry", reason: `HTTP ${status}: ${message}`, status, ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }) };
  }
  return { kind: "failed", code: failureCodeOfStatus(status), message };
}

function failureCodeOfStatus(status: number): VideoErrorCode {
  if (status === 402) return "insufficient_credits";
  if (status === 401 || status === 403) return "upstream_error";
  return status >= 400 && status < 500 ? "invalid_request" : "upstream_error";
}

/**
 * The upstream hands back URLs to call next; the API key is sent only to the origin the operator
 * configured, so a returned URL elsewhere is replaced by the one built from the base URL.
 */
export function onOrigin(candidate: unknown, baseUrl: string, fallback: string): string {
  if (typeof candidate !== "string") return fallback;
  try {
    return new URL(candidate).origin === new URL(baseUrl).origin ? candidate : fallback;
  } catch {
    return fallback;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const trimSlash = (url: string) => url.replace(/\/+$/, "");
