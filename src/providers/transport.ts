import type { ProviderEntry } from "../catalog/types";

export const ANTHROPIC_VERSION = "2023-06-01";

/** Auth and protocol headers for one upstream call. */
export function upstreamHeaders(provider: ProviderEntry, apiKey: string, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: stream ? "text/event-stream" : "application/json",
    ...provider.headers,
  };
  if (provider.api === "anthropic-messages") {
    headers["x-api-key"] = apiKey;
    headers["anthropic-version"] = ANTHROPIC_VERSION;
  } else {
    headers.authorization = `Bearer ${apiKey}`;
  }
  return headers;
}

/** One HTTP request to an operator-configured upstream; `body` is sent as JSON. */
export type UpstreamHttpRequest = { url: string; method: "GET" | "POST" | "PUT"; headers: Record<string, string>; body?: unknown; signal: AbortSignal };

/**
 * The one transport of every upstream API (completions, embeddings, video jobs). Provider base
 * URLs come from the operator's config and are trusted (user-supplied URLs go through
 * src/jobs/outbound instead). A redirect is not followed: the provider key stays with the origin
 * it was configured for, and a 3xx is an answer the caller classifies like any other. Bun's own
 * fetch timeout is off: a long generation can be silent for minutes before its headers, so every
 * caller bounds the wait with its signal.
 */
export function upstreamFetch(request: UpstreamHttpRequest, fetchImpl: typeof fetch = fetch): Promise<Response> {
  const json = request.body !== undefined;
  return fetchImpl(request.url, {
    method: request.method,
    headers: json && !("content-type" in request.headers) ? { "content-type": "application/json", ...request.headers } : request.headers,
    body: json ? JSON.stringify(request.body) : undefined,
    signal: request.signal,
    redirect: "manual",
    timeout: false,
  } as RequestInit);
}

export type UpstreamCall = {
  provider: ProviderEntry;
  apiKey: string;
  path: string;
  body: Record<string, unknown>;
  stream: boolean;
  signal: AbortSignal;
};

/** POSTs to `<base_url><path>` with the provider's auth and protocol headers. */
export function sendUpstream(call: UpstreamCall): Promise<Response> {
  return upstreamFetch({ url: call.provider.baseUrl + call.path, method: "POST", headers: upstreamHeaders(call.provider, call.apiKey, call.stream), body: call.body, signal: call.signal });
}
