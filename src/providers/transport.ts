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

export type UpstreamCall = {
  provider: ProviderEntry;
  apiKey: string;
  path: string;
  body: Record<string, unknown>;
  stream: boolean;
  signal: AbortSignal;
};

/** POSTs to `<base_url><path>`. Provider base URLs come from the operator's config and are trusted. */
export function sendUpstream(call: UpstreamCall): Promise<Response> {
  return fetch(call.provider.baseUrl + call.path, {
    method: "POST",
    headers: upstreamHeaders(call.provider, call.apiKey, call.stream),
    body: JSON.stringify(call.body),
    signal: call.signal,
    redirect: "manual",
    // a long generation can be silent for minutes before its headers
    timeout: false,
  } as RequestInit);
}
