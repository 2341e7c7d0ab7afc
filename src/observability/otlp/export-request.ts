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

/** The body of one export: one generation's trace. */
export function exportRequest(g: ObservedGeneration, d: Destination, profile: OtlpProfile): ExportTraceServiceRequest {
  const resource = { "service.name": SERVICE_NAME, ...profile.resourceAttributes?.(d.config) };
  return {
    resourceSpans: [{ resource: { attributes: encodeAttributes(resource) }, scopeSpans: [{ scope: { name: SCOPE_NAME }, spans: traceSpans(g, d, profile) }] }],
  };
}

/** The connection test's body: an export with nothing in it, which an OTLP receiver answers with 200. */
export const EMPTY_EXPORT: ExportTraceServiceRequest = { resourceSpans: [] };
