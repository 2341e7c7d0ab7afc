// One preset or request configuration ("spec") written in each format's own field names, with
// fast-check generators, for the IR-level preset tests.

import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import { MessagesRequestSchema } from "../../../src/formats/anthropic-messages/schema";
import { ChatRequestSchema } from "../../../src/formats/openai-chat/schema";
import { ResponsesRequestSchema } from "../../../src/formats/openai-responses/schema";
import { type InboundFormat, inboundCodecs } from "../../../src/gateway/codecs";
import type { IRRequest } from "../../../src/ir/types";

export const FORMATS: InboundFormat[] = ["openai-chat", "openai-responses", "anthropic-messages"];
const SCHEMAS: Record<InboundFormat, TSchema> = {
  "openai-chat": ChatRequestSchema,
  "openai-responses": ResponsesRequestSchema,
  "anthropic-messages": MessagesRequestSchema,
};

type ToolSpec = { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
export type Spec = {
  model: string;
  temperature?: number;
  maxTokens?: number;
  tools?: ToolSpec[];
  toolChoice?: "auto" | "none" | "required" | { name: string };
  disableParallel?: boolean;
  stop?: string[];
  effort?: "low" | "medium" | "high";
  budget?: number;
  schema?: { name: string; schema: Record<string, unknown> };
};

/** The spec written as a body's config in each endpoint's own names. */
export function configFor(format: InboundFormat, s: Spec): Record<string, unknown> {
  const c: Record<string, unknown> = { model: s.model };
  if (s.temperature !== undefined) c.temperature = s.temperature;
  const choice = s.toolChoice;
  if (format === "openai-chat") {
    if (s.maxTokens !== undefined) c.max_tokens = s.maxTokens;
    if (s.tools)
      c.tools = s.tools.map(({ name, description, parameters, strict }) => ({
        type: "function",
        function: { name, parameters, ...(description ? { description } : {}), ...(strict !== undefined ? { strict } : {}) },
      }));
    if (choice !== undefined) c.tool_choice = typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
    if (s.disableParallel) c.parallel_tool_calls = false;
    if (s.stop) c.stop = s.stop;
    if (s.effort !== undefined || s.budget !== undefined)
      c.reasoning = { ...(s.effort ? { effort: s.effort } : {}), ...(s.budget !== undefined ? { enabled: true, max_tokens: s.budget } : {}) };
    if (s.schema) c.response_format = { type: "json_schema", json_schema: s.schema };
  } else if (format === "openai-responses") {
    if (s.maxTokens !== undefined) c.max_output_tokens = s.maxTokens;
    if (s.tools)
      c.tools = s.tools.map(({ name, description, parameters, strict }) => ({
        type: "function",
        name,
        parameters,
        ...(description ? { description } : {}),
        ...(strict !== undefined ? { strict } : {}),
      }));
    if (choice !== undefined) c.tool_choice = typeof choice === "string" ? choice : { type: "function", name: choice.name };
    if (s.disableParallel) c.parallel_tool_calls = false;
    if (s.effort !== undefined || s.budget !== undefined)
      c.reasoning = { ...(s.effort ? { effort: s.effort } : {}), ...(s.budget !== undefined ? { enabled: true, max_tokens: s.budget } : {}) };
    if (s.schema) c.text = { format: { type: "json_schema", ...s.schema } };
  } else {
    if (s.maxTokens !== undefined) c.max_tokens = s.maxTokens;
    if (s.tools)
      c.tools = s.tools.map(({ name, description, parameters, strict }) => ({
        name,
        input_schema: parameters,
        ...(description ? { description } : {}),
        ...(strict !== undefined ? { strict } : {}),
      }));
    if (choice !== undefined) {
      const base = typeof choice === "string" ? { type: { auto: "auto", none: "none", required: "any" }[choice] } : { type: "tool", name: choice.name };
      c.tool_choice = s.disableParallel && choice !== "none" ? { ...base, disable_parallel_tool_use: true } : base;
    }
    if (s.stop) c.stop_sequences = s.stop;
    if (s.budget !== undefined) c.thinking = { type: "enabled", budget_tokens: s.budget };
    if (s.effort || s.schema)
      c.output_config = { ...(s.effort ? { effort: s.effort } : {}), ...(s.schema ? { format: { type: "json_schema", schema: s.schema.schema } } : {}) };
  }
  return c;
}

/** What both formats can say: Responses has no stop sequences; Anthropic names no output schema. */
export function common(s: Spec, a: InboundFormat, b: InboundFormat): Spec {
  const out = { ...s };
  if (a === "openai-responses" || b === "openai-responses") delete out.stop;
  if ((a === "anthropic-messages" || b === "anthropic-messages") && out.schema) out.schema = { ...out.schema, name: "output" };
  return out;
}

/**
 * The spec a request `r` over a preset `p` stands for: each thing the request says wins whole.
 * Effort and budget are one thing (the IR's `reasoning`), as are the tool choice and, apart, the
 * parallel switch.
 */
export function mergeSpecs(p: Spec, r: Spec): Spec {
  const merged: Spec = { ...p };
  for (const key of ["model", "temperature", "maxTokens", "tools", "toolChoice", "disableParallel", "stop", "schema"] as const) {
    if (r[key] !== undefined) (merged as Record<string, unknown>)[key] = r[key];
  }
  if (r.effort !== undefined || r.budget !== undefined) {
    delete merged.effort;
    delete merged.budget;
    if (r.effort !== undefined) merged.effort = r.effort;
    if (r.budget !== undefined) merged.budget = r.budget;
  }
  return merged;
}

export function withContent(format: InboundFormat, config: Record<string, unknown>): Record<string, unknown> {
  if (format === "openai-responses") return { ...config, input: "hi" };
  return { ...config, messages: [{ role: "user", content: "hi" }] };
}

/** A request body in `format` (the config plus one user turn), schema-checked, decoded by that format's codec. */
export function decodeRequest(format: InboundFormat, config: Record<string, unknown>): IRRequest {
  const body = withContent(format, config);
  const error = Value.Errors(SCHEMAS[format], body).First();
  if (error) throw new Error(`${format} body invalid at ${error.path}: ${error.message} in ${JSON.stringify(body)}`);
  return inboundCodecs[format].decodeRequest(body);
}

export const FIELDS = ["model", "maxOutputTokens", "temperature", "tools", "toolChoice", "parallelToolCalls", "stop", "reasoning", "responseFormat"] as const;

/** The IR fields a spec can set, those that are set. */
export function fieldsOf(ir: IRRequest): Record<string, unknown> {
  const record = ir as unknown as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));
}

const toolNames = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,9}$/), { minLength: 1, maxLength: 3 });
export const specArb: fc.Arbitrary<Spec> = fc
  .record(
    {
      model: fc.constantFrom("acme/alpha", "acme/beta"),
      temperature: fc.integer({ min: 0, max: 20 }).map((n) => n / 10),
      maxTokens: fc.integer({ min: 1, max: 100_000 }),
      names: toolNames,
      description: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }),
      strict: fc.option(fc.boolean(), { nil: undefined }),
      choice: fc.option(fc.oneof(fc.constantFrom("auto" as const, "none" as const, "required" as const), fc.constant("named" as const)), { nil: undefined }),
      disableParallel: fc.boolean(),
      stop: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
      effort: fc.constantFrom("low" as const, "medium" as const, "high" as const),
      budget: fc.integer({ min: 1024, max: 32_000 }),
      schemaName: fc.stringMatching(/^[a-z]{1,12}$/),
    },
    { requiredKeys: ["model"] },
  )
  .map((r) => {
    const spec: Spec = { model: r.model };
    if (r.temperature !== undefined) spec.temperature = r.temperature;
    if (r.maxTokens !== undefined) spec.maxTokens = r.maxTokens;
    if (r.names) {
      spec.tools = r.names.map((name) => ({
        name,
        parameters: { type: "object", properties: { q: { type: "string" } } },
        ...(r.description ? { description: r.description } : {}),
        ...(r.strict !== undefined ? { strict: r.strict } : {}),
      }));
      if (r.choice !== undefined) spec.toolChoice = r.choice === "named" ? { name: r.names[0]! } : r.choice;
      // Anthropic carries "no parallel calls" inside a tool choice, so only with one that allows calls
      if (r.disableParallel && spec.toolChoice !== undefined && spec.toolChoice !== "none") spec.disableParallel = true;
    }
    if (r.stop) spec.stop = r.stop;
    if (r.effort) spec.effort = r.effort;
    if (r.budget !== undefined) spec.budget = r.budget;
    if (r.schemaName) spec.schema = { name: r.schemaName, schema: { type: "object" } };
    return spec;
  });
