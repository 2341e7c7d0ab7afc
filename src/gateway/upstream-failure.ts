import { retryAfterMsHeader } from "../retry-after";

/**
 * What went wrong with one upstream attempt, as the transport saw it. Whether another
 * candidate may be tried, and whether the endpoint is to blame, is decided once, by
 * `classifyFailure`.
 */
export type UpstreamFailure = {
  ok: false;
  /**
   * `transport`: no usable answer (refused connection, timeout, unreadable body);
   * `http`: an HTTP error status; `event`: an error event in place of the stream's first output
   */
  kind: "transport" | "http" | "event";
  /** upstream HTTP status (or the error event's), 0 when no response came */
  status: number;
  message: string;
  raw?: unknown;
  timedOut: boolean;
  retryAfter?: string;
  /** the upstream's `retry-after-ms` (OpenAI, Azure OpenAI): finer than `retryAfter`, so read first */
  retryAfterMs?: number;
};

export type ClassifiedFailure = {
  failure: UpstreamFailure;
  provider: string;
  /** another candidate may succeed where this one failed */
  retryable: boolean;
  /** the endpoint's circuit and live figures count it as a failure */
  blameEndpoint: boolean;
};

/** Upstream statuses that say the request itself is wrong: another provider would say the same. */
const REQUEST_ERRORS = new Set([400, 413, 422]);

/** An error event instead of output: only overload, rate limits and timeouts are worth another try. */
const retryableEvent = (status: number) => status === 408 || status === 429 || status >= 500;

export function classifyFailure(failure: UpstreamFailure, provider: string, isByok: boolean): ClassifiedFailure {
  const retryable = failure.kind === "transport" || (failure.kind === "http" ? !REQUEST_ERRORS.has(failure.status) : retryableEvent(failure.status));
  // one workspace's rejected BYOK key says nothing about the endpoint's health for everyone else
  const rejectedCredential = isByok && (failure.status === 401 || failure.status === 403);
  return { failure, provider, retryable, blameEndpoint: retryable && !rejectedCredential };
}

export function transportFailure(message: string, extra: Partial<UpstreamFailure> = {}): UpstreamFailure {
  return { ok: false, kind: "transport", status: 0, message, timedOut: false, ...extra };
}

const MAX_ERROR_BODY = 64 * 1024;

/**
 * An upstream's HTTP error answer: its status (as `statusOf` reads it, where the API's own status
 * misleads), the message its body gives, and the body itself.
 */
export async function httpFailure(
  res: Response,
  messageOf: (body: unknown) => string | undefined,
  statusOf?: (status: number, body: unknown) => number,
): Promise<UpstreamFailure> {
  const text = (await res.text().catch(() => "")).slice(0, MAX_ERROR_BODY);
  let raw: unknown = text;
  try {
    raw = JSON.parse(text);
  } catch {}
  const message = messageOf(raw) ?? (text || res.statusText || `HTTP ${res.status}`);
  const status = statusOf ? statusOf(res.status, raw) : res.status;
  const retryAfterMs = retryAfterMsHeader(res.headers.get("retry-after-ms"));
  return {
    ok: false,
    kind: "http",
    status,
    message,
    raw,
    timedOut: false,
    retryAfter: res.headers.get("retry-after") ?? undefined,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
