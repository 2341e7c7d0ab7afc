import type { ProviderEntry } from "../catalog/types";
import type { UpstreamApi } from "./upstream-api";

/** One HTTP request to an operator-configured upstream; `body` is sent as JSON. */
export type UpstreamHttpRequest = {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string | ReadableStream<Uint8Array>;
  signal: AbortSignal;
};

/**
 * The one transport of every upstream API (completions, embeddings, video jobs). Provider base
 * URLs come from the operator's config and are trusted (user-supplied URLs go through
 * src/jobs/outbound instead). A redirect is not followed: the provider key stays with the origin
 * it was configured for, and a 3xx is an answer the caller classifies like any other. Bun's own
 * fetch timeout is off: a long generation can be silent for minutes before its headers, so every
 * caller bounds the wait with its signal.
 */
export function upstreamFetch(request: UpstreamHttpRequest, fetchImpl: typeof fetch = fetch): Promise<Response> {
  // `rawBody`: bytes already serialised (and perhaps signed) by the caller, or streamed by it (a large upload)
  const json = request.body !== undefined;
  return fetchImpl(request.url, {
    method: request.method,
    headers: json && !("content-type" in request.headers) ? { "content-type": "application/json", ...request.headers } : request.headers,
    body: request.rawBody ?? (json ? JSON.stringify(request.body) : undefined),
    signal: request.signal,
    redirect: "manual",
    timeout: false,
  } as RequestInit);
}

export type UpstreamCall = {
  api: UpstreamApi;
  provider: ProviderEntry;
  /** the API key, or the credential material an API exchanges or signs with */
  credential: string;
  url: string;
  body: Record<string, unknown>;
  stream: boolean;
  signal: AbortSignal;
};

/**
 * POSTs a JSON body to one upstream API, with the headers that API computes for it. A 401 to an
 * API that exchanges its credential (an access token revoked or expired early) is tried once
 * more with a fresh exchange.
 */
export async function sendUpstream(call: UpstreamCall): Promise<Response> {
  const body = JSON.stringify(call.body);
  const outgoing = { url: call.url, body, stream: call.stream };
  const send = async () => {
    const pending = call.api.headers(call.provider, call.credential, outgoing, call.signal);
    const headers = pending instanceof Promise ? await pending : pending;
    return upstreamFetch({ url: call.url, method: "POST", headers, rawBody: body, signal: call.signal });
  };
  const res = await send();
  if (res.status !== 401 || !call.api.credentialRefused?.(call.provider, call.credential)) return res;
  await res.body?.cancel().catch(() => {});
  return send();
}
