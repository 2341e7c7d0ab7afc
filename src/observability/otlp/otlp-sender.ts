import type { Destination, DestinationSender, SenderDeps } from "../contract";
import { destinationHeaders, USER_AGENT } from "../outbound-headers";
import { EMPTY_EXPORT, exportRequest } from "./export-request";
import type { OtlpProfile } from "./profile";
import { exportOutcome, probeOutcome } from "./response-outcome";

function request(profile: OtlpProfile, d: Destination, body: string, extra: Record<string, string> = {}) {
  const own = { ...profile.authHeaders(d.config), "content-type": "application/json", "user-agent": USER_AGENT, ...extra };
  return { url: profile.url(d.config), method: profile.method?.(d.config) ?? "POST", headers: destinationHeaders(d.config.headers, own), body };
}

/**
 * The sender of one OTLP type: one OTLP/HTTP JSON export per generation. The connection test
 * sends an empty export with the real headers and `X-Test-Connection: true`.
 */
export function otlpSender(profile: OtlpProfile): DestinationSender {
  return {
    type: profile.type,
    configKeys: profile.configKeys,
    async probe(d: Destination, deps: SenderDeps) {
      const req = request(profile, d, JSON.stringify(EMPTY_EXPORT), { "x-test-connection": "true" });
      return probeOutcome(await deps.http(req), req.url);
    },
    async send(g, d, deps) {
      const req = request(profile, d, JSON.stringify(exportRequest(g, d, profile)));
      return exportOutcome(await deps.http(req), deps.clock());
    },
  };
}
