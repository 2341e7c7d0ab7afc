import type { Config } from "../config";
import { sendOutbound } from "../jobs/outbound/client";
import type { HostLookup } from "../jobs/outbound/host-lookup";
import { outboundOptionsOf } from "../jobs/outbound/policy";
import type { SenderDeps, SenderHttp } from "./contract";

/**
 * HTTP for senders: the guarded outbound client (URL checked at send time, pinned address, no
 * redirects, time and size limits) under the operator's `security.allow_private_urls`.
 */
export function senderHttp(ctx: { config: Pick<Config, "security">; lookup?: HostLookup }): SenderHttp {
  const options = outboundOptionsOf(ctx);
  return async (request) => {
    const sent = await sendOutbound(
      request.method === "GET" ? { url: request.url, method: "GET", headers: request.headers } : { url: request.url, method: request.method, headers: request.headers, body: request.body ?? "" },
      options,
    );
    return sent.kind === "response" ? { kind: "response", status: sent.status, headers: sent.headers, body: sent.body } : sent;
  };
}

export function senderDepsOf(ctx: { config: Pick<Config, "security">; lookup?: HostLookup; clock: () => number }): SenderDeps {
  return { http: senderHttp(ctx), clock: ctx.clock, allowPrivateUrls: ctx.config.security.allowPrivateUrls };
}
