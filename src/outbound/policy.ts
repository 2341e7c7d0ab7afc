import type { Config } from "../config";
import { badRequest } from "../errors";
import { checkOutboundUrl, type UrlPolicy } from "./check-url";
import { OUTBOUND_LIMITS, type OutboundOptions } from "./client";
import { type HostLookup, systemLookup } from "./host-lookup";

/** What the outbound rules depend on: the operator's setting and the resolver (injected by tests). */
export type OutboundContext = { config: Pick<Config, "security">; lookup?: HostLookup };

export function urlPolicyOf(ctx: OutboundContext): UrlPolicy {
  return { allowPrivate: ctx.config.security.allowPrivateUrls, lookup: ctx.lookup ?? systemLookup, lookupTimeoutMs: OUTBOUND_LIMITS.lookupTimeoutMs };
}

export function outboundOptionsOf(ctx: OutboundContext): OutboundOptions {
  return {
    ...urlPolicyOf(ctx),
    totalTimeoutMs: OUTBOUND_LIMITS.totalTimeoutMs,
    connectTimeoutMs: OUTBOUND_LIMITS.connectTimeoutMs,
    maxResponseBytes: OUTBOUND_LIMITS.maxResponseBytes,
  };
}

/** The save-time check of a user-supplied URL: a 400 naming `field` unless it passes. */
export async function requireOutboundUrl(ctx: OutboundContext, field: string, raw: string): Promise<string> {
  const checked = await checkOutboundUrl(raw, urlPolicyOf(ctx));
  if (!checked.ok) throw badRequest(`${field} ${checked.reason}`, { field, reason: checked.reason });
  return raw;
}
