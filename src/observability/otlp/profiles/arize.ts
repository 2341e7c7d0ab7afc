import type { Destination, ObservedGeneration } from "../../contract";
import { type Attributes, double } from "../attribute-value";
import { contentOf } from "../content-attributes";
import { operationShapeOf } from "../operation";
import { configText, joinUrl, type OtlpProfile } from "../profile";
import { traceFieldsOf } from "../trace-fields";

const textOf = (content: unknown): string => (typeof content === "string" ? content : JSON.stringify(content ?? null));

/** `llm.input_messages.<i>.message.role|content`: OpenInference's flattened messages. */
function inputMessages(messages: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(messages)) return out;
  messages.forEach((m, i) => {
    const message: Record<string, unknown> = typeof m === "object" && m !== null ? (m as Record<string, unknown>) : { content: m };
    out[`llm.input_messages.${i}.message.role`] = typeof message.role === "string" ? message.role : "user";
    out[`llm.input_messages.${i}.message.content`] = textOf(message.content);
  });
  return out;
}

/** OpenInference attributes, which Arize reads instead of semconv's. */
function generationAttributes(g: ObservedGeneration, d: Destination): Attributes {
  const { input, output } = contentOf(g, d);
  const shape = operationShapeOf(g);
  const withOutput = shape.hasOutput;
  const { prompt, completion } = g.tokens;
  return {
    "openinference.span.kind": shape.semconvOperation === "embeddings" ? "EMBEDDING" : "LLM",
    "llm.model_name": g.model,
    "llm.provider": g.providerSlug ?? undefined,
    "llm.token_count.prompt": prompt,
    "llm.token_count.completion": withOutput ? completion : undefined,
    "llm.token_count.total": prompt === null && completion === null ? undefined : (prompt ?? 0) + (withOutput ? (completion ?? 0) : 0),
    "llm.token_count.prompt_details.cache_read": g.tokens.cached,
    "llm.cost.prompt": double(g.cost.input),
    "llm.cost.completion": double(g.cost.output),
    "llm.cost.total": double(g.cost.total),
    "llm.invocation_parameters": input ? JSON.stringify(input.parameters) : undefined,
    "input.value": input ? JSON.stringify(input.messages ?? null) : undefined,
    "input.mime_type": input ? "application/json" : undefined,
    ...(input ? inputMessages(input.messages) : {}),
    "output.value": output && withOutput ? output.text : undefined,
    "output.mime_type": output && withOutput ? "text/plain" : undefined,
    "llm.output_messages.0.message.role": output && withOutput ? "assistant" : undefined,
    "llm.output_messages.0.message.content": output && withOutput ? output.text : undefined,
    metadata: JSON.stringify(traceFieldsOf(g).metadata),
  };
}

/**
 * Arize AX: the path must be `/v1/traces` (a POST to `/v1` answers 200 and drops the spans);
 * the space and key under both header spellings Arize has documented; the model id names the
 * project on the resource.
 */
export const arizeProfile: OtlpProfile = {
  type: "arize",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "spaceKey", required: true },
    { key: "modelId", required: true },
    { key: "baseUrl", required: false, default: "https://otlp.arize.com", url: true },
  ],
  url: (config) => joinUrl(configText(config, "baseUrl"), "/v1/traces"),
  authHeaders: (config) => ({
    space_id: configText(config, "spaceKey"),
    api_key: configText(config, "apiKey"),
    "arize-space-id": configText(config, "spaceKey"),
    "arize-api-key": configText(config, "apiKey"),
  }),
  resourceAttributes: (config) => ({ model_id: configText(config, "modelId"), "openinference.project.name": configText(config, "modelId") }),
  generationAttributes,
};
