import { batchRanges } from "../batch-ranges";
import type { Destination, DestinationSender, ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import { refusesContent, sendSplitting } from "../halving-batches";
import { destinationHeaders, USER_AGENT } from "../outbound-headers";
import { EMPTY_EXPORT, exportBody, spansJson } from "./export-request";
import type { OtlpProfile } from "./profile";
import { exportOutcome, probeOutcome } from "./response-outcome";

function request(profile: OtlpProfile, d: Destination, body: string, extra: Record<string, string> = {}) {
  const own = { ...profile.authHeaders(d.config), "content-type": "application/json", "user-agent": USER_AGENT, ...extra };
  return { url: profile.url(d.config), method: profile.method?.(d.config) ?? "POST", headers: destinationHeaders(d.config.headers, own), body };
}

/**
 * At most this many generations in one export: about 2 spans each, so within the 512 spans an
 * OpenTelemetry SDK's batch processor exports at once by default, which receivers are sized for.
 */
const MAX_EXPORT_GENERATIONS = 200;

/** At most about this many characters of spans in one export: New Relic refuses a body over 1 MB; larger exports are the ones a receiver answers 413. */
const MAX_EXPORT_CHARS = 900_000;

/**
 * The sender of one OTLP type: the traces of a drain's generations in as few exports as the size
 * caps allow, one generation's on its own for a retry. The connection test sends
 * an empty export with the real headers and `X-Test-Connection: true`.
 */
export function otlpSender(profile: OtlpProfile): DestinationSender {
  const sendMany = (generations: readonly ObservedGeneration[], d: Destination, deps: SenderDeps): Promise<SendOutcome[]> => {
    const spans = generations.map((g) => spansJson(g, d, profile));
    return sendSplitting(
      spans,
      batchRanges(spans, MAX_EXPORT_GENERATIONS, MAX_EXPORT_CHARS),
      (batch) => deps.http(request(profile, d, exportBody(batch, d, profile))),
      (result) => exportOutcome(result, deps.clock()),
      refusesContent,
    );
  };
  return {
    type: profile.type,
    configKeys: profile.configKeys,
    async probe(d: Destination, deps: SenderDeps) {
      const req = request(profile, d, JSON.stringify(EMPTY_EXPORT), { "x-test-connection": "true" });
      return probeOutcome(await deps.http(req), req.url);
    },
    sendMany,
    send: async (g, d, deps) => (await sendMany([g], d, deps))[0]!,
  };
}
