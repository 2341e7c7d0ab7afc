import type { Destination, ObservedGeneration } from "../contract";
import { encodeAttributes } from "./attribute-value";
import type { OtlpProfile } from "./profile";
import { traceSpans } from "./trace-spans";
import type { ExportTraceServiceRequest } from "./wire";

/**
 * Resource and scope as OpenRouter's Broadcast names them, so that dashboards and saved queries
 * built for it (service.name = openrouter) read the gateway's traces unchanged.
 */
export const SERVICE_NAME = "openrouter";
export const SCOPE_NAME = "openrouter";

const resourceOf = (d: Destination, profile: OtlpProfile) => ({
  attributes: encodeAttributes({ "service.name": SERVICE_NAME, ...profile.resourceAttributes?.(d.config) }),
});

/** The body of one export: one generation's trace. */
export function exportRequest(g: ObservedGeneration, d: Destination, profile: OtlpProfile): ExportTraceServiceRequest {
  return { resourceSpans: [{ resource: resourceOf(d, profile), scopeSpans: [{ scope: { name: SCOPE_NAME }, spans: traceSpans(g, d, profile) }] }] };
}

/** A generation's spans in JSON, as items of an export's `spans` list (exportBody): each generation is serialised once, whatever export it ends up in. */
export const spansJson = (g: ObservedGeneration, d: Destination, profile: OtlpProfile): string => JSON.stringify(traceSpans(g, d, profile)).slice(1, -1);

/** The JSON body of one export of several generations' traces (the bytes of exportRequest's JSON for one). */
export function exportBody(spans: readonly string[], d: Destination, profile: OtlpProfile): string {
  return `{"resourceSpans":[{"resource":${JSON.stringify(resourceOf(d, profile))},"scopeSpans":[{"scope":${JSON.stringify({ name: SCOPE_NAME })},"spans":[${spans.join(",")}]}]}]}`;
}

/** The connection test's body: an export with nothing in it, which an OTLP receiver answers with 200. */
export const EMPTY_EXPORT: ExportTraceServiceRequest = { resourceSpans: [] };
