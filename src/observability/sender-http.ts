import { type OutboundOptions, sendOutbound } from "../outbound/client";
import { type OutboundContext, outboundOptionsOf } from "../outbound/policy";
import type { SenderDeps, SenderHttp } from "./contract";

/**
 * The contract's SenderHttp over the one guarded outbound client (src/outbound): the URL is
 * checked under the operator's `security.allow_private_urls` before every request, the checked
 * address is the one connected to, redirects are never followed, and the answer read is bounded.
 */
export function senderHttpOf(options: OutboundOptions): SenderHttp {
  return async (request) => {
    const result =
      request.method === "GET"
        ? await sendOutbound({ url: request.url, method: "GET", headers: request.headers }, options)
        : await sendOutbound({ url: request.url, method: request.method, headers: request.headers, body: request.body ?? "" }, options);
    if (result.kind !== "response") return result;
    return { kind: "response", status: result.status, headers: result.headers, body: result.body };
  };
}

/** What senders get, from the configuration (and, in tests, the resolver) of the caller: the HTTP side or a job worker. */
export function senderDepsOf(ctx: OutboundContext & { clock: () => number }): SenderDeps {
  return { http: senderHttpOf(outboundOptionsOf(ctx)), clock: ctx.clock, allowPrivateUrls: ctx.config.security.allowPrivateUrls };
}
