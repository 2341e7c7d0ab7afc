/**
 * `SenderDeps` for sender tests built on the real guarded client (`sendOutbound`) with private
 * URLs allowed, so every request crosses real HTTP to a loopback receiver. Destinations whose
 * host is fixed (Opik Cloud, Snowflake accounts) are routed by rewriting the URL's origin to
 * the receiver's, keeping path and query: the sender still builds the real URL.
 */

import type { SenderDeps, SenderHttp } from "../../src/observability/contract";
import { type OutboundOptions, sendOutbound } from "../../src/outbound/client";

export const TEST_NOW = Date.parse("2026-11-22T12:00:05.000Z");

const loopbackOptions: OutboundOptions = {
  allowPrivate: true,
  lookup: async () => [{ address: "127.0.0.1", family: 4 }],
  lookupTimeoutMs: 1_000,
  totalTimeoutMs: 5_000,
  connectTimeoutMs: 1_000,
  maxResponseBytes: 64 * 1024,
};

/** `routes` maps a host (or a `*.suffix`) to the origin that answers for it, e.g. `http://127.0.0.1:4321`. */
export function loopbackHttp(routes: Record<string, string> = {}): SenderHttp & { urls: string[] } {
  const urls: string[] = [];
  const route = (raw: string) => {
    const url = new URL(raw);
    const origin = routes[url.host] ?? Object.entries(routes).find(([host]) => host.startsWith("*.") && url.host.endsWith(host.slice(1)))?.[1];
    return origin ? `${origin}${url.pathname}${url.search}` : raw;
  };
  const http = async (request: Parameters<SenderHttp>[0]) => {
    urls.push(request.url);
    const url = route(request.url);
    const outbound =
      request.method === "GET"
        ? { url, method: "GET" as const, headers: request.headers }
        : { url, method: request.method, headers: request.headers, body: request.body ?? "" };
    return sendOutbound(outbound, loopbackOptions);
  };
  return Object.assign(http, { urls });
}

export function loopbackDeps(routes: Record<string, string> = {}, now = TEST_NOW): SenderDeps & { http: ReturnType<typeof loopbackHttp> } {
  return { http: loopbackHttp(routes), clock: () => now, allowPrivateUrls: true };
}
