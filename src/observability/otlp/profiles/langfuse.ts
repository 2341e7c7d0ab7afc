import type { Destination, ObservedGeneration } from "../../contract";
import type { Attributes } from "../attribute-value";
import { completionMessage, contentOf } from "../content-attributes";
import { operationShapeOf } from "../operation";
import { basicAuth, configText, joinUrl, type OtlpProfile } from "../profile";
import { prefixed, traceFieldsOf } from "../trace-fields";

/**
 * Langfuse's trace-level fields, on every span: Langfuse builds its trace from whichever span it
 * reads first. `langfuse.trace.metadata.<k>` makes each key first-level and filterable.
 */
function traceAttributes(g: ObservedGeneration): Attributes {
  const fields = traceFieldsOf(g);
  return {
    "langfuse.trace.name": fields.traceName,
    "langfuse.user.id": g.externalUser ?? g.userId,
    "langfuse.session.id": g.sessionId,
    ...prefixed("langfuse.trace.metadata", fields.metadata),
  };
}

function generationAttributes(g: ObservedGeneration, d: Destination): Attributes {
  const { input, output } = contentOf(g, d);
  const shape = operationShapeOf(g);
  return {
    "langfuse.observation.type": shape.semconvOperation === "embeddings" ? "embedding" : "generation",
    "langfuse.observation.level": g.status === "error" ? "ERROR" : g.status === "cancelled" ? "WARNING" : "DEFAULT",
    "langfuse.observation.status_message": g.errorMessage ?? undefined,
    "langfuse.observation.input": input ? JSON.stringify(input.messages ?? null) : undefined,
    "langfuse.observation.output": output && shape.hasOutput ? JSON.stringify(completionMessage(output)) : undefined,
    "langfuse.observation.model.parameters": input && Object.keys(input.parameters).length > 0 ? JSON.stringify(input.parameters) : undefined,
    "langfuse.observation.usage_details": JSON.stringify(usageDetails(g, shape.hasOutput)),
    "langfuse.observation.cost_details": JSON.stringify({ input: g.cost.input, output: g.cost.output, total: g.cost.total }),
    "langfuse.observation.completion_start_time": g.timeToFirstTokenMs === null ? undefined : new Date(g.startedAt + g.timeToFirstTokenMs).toISOString(),
  };
}

function usageDetails(g: ObservedGeneration, withOutput: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  if (g.tokens.prompt !== null) out.input = g.tokens.prompt;
  if (withOutput && g.tokens.completion !== null) out.output = g.tokens.completion;
  if (g.tokens.cached !== null) out.cache_read_input_tokens = g.tokens.cached;
  if (g.tokens.cacheWrite !== null) out.cache_creation_input_tokens = g.tokens.cacheWrite;
  if (withOutput && g.tokens.reasoning !== null) out.reasoning_tokens = g.tokens.reasoning;
  if (out.input !== undefined || out.output !== undefined) out.total = (out.input ?? 0) + (out.output ?? 0);
  return out;
}

/**
 * Langfuse's OTLP endpoint: Basic publicKey:secretKey, and ingestion version 4 so spans show at
 * once instead of about ten minutes later.
 */
export const langfuseProfile: OtlpProfile = {
  type: "langfuse",
  configKeys: [
    { key: "publicKey", required: true },
    { key: "secretKey", required: true, secret: true },
    { key: "baseUrl", required: false, default: "https://us.cloud.langfuse.com", url: true },
  ],
  url: (config) => joinUrl(configText(config, "baseUrl"), "/api/public/otel/v1/traces"),
  authHeaders: (config) => ({
    authorization: basicAuth(configText(config, "publicKey"), configText(config, "secretKey")),
    "x-langfuse-ingestion-version": "4",
  }),
  generationAttributes,
  everySpanAttributes: traceAttributes,
};
