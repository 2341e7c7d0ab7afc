// A preset config created through one endpoint and used from another must mean the same to
// the gateway as if the client had written it in the second endpoint's own fields: the
// decoded IR requests match, and the translated body passes that endpoint's schema.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { Value } from "@sinclair/typebox/value";
import { inboundCodecs, type InboundFormat } from "../../../src/gateway/codecs";
import { presetConfigFor } from "../../../src/gateway/preset-merge";
import { ChatRequestSchema } from "../../../src/formats/openai-chat/schema";
import { ResponsesRequestSchema } from "../../../src/formats/openai-responses/schema";
import { MessagesRequestSchema } from "../../../src/formats/anthropic-messages/schema";

const FORMATS: InboundFormat[] = ["openai-chat", "openai-responses", "anthropic-messages"];
const SCHEMAS = { "openai-chat": ChatRequestSchema, "openai-responses": ResponsesRequestSchema, "anthropic-messages": MessagesRequestSchema };

type ToolSpec = { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
type Spec = {
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

/** The spec written as a create body's config in each endpoint's own names. */
function configFor(format: InboundFormat, s: Spec): Record<string, unknown> {
  const c: Record<string, unknown> = { model: s.model };
  if (s.temperature !== undefined) c.temperature = s.temperature;
  const choice = s.toolChoice;
  if (format === "openai-chat") {
    if (s.maxTokens !== undefined) c.max_tokens = s.maxTokens;
    if (s.tools) c.tools = s.tools.map(({ name, description, parameters, strict }) => ({ type: "function", function: { name, parameters, ...(description ? { description } : {}), ...(strict !== undefined ? { strict } : {}) } }));
    if (choice !== undefined) c.tool_choice = typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
    if (s.disableParallel) c.parallel_tool_calls = false;
    if (s.stop) c.stop = s.stop;
    if (s.effort !== undefined || s.budget !== undefined) c.reasoning = { ...(s.effort ? { effort: s.effort } : {}), ...(s.budget !== undefined ? { enabled: true, max_tokens: s.budget } : {}) };
    if (s.schema) c.response_format = { type: "json_schema", json_schema: s.schema };
  } else if (format === "openai-responses") {
    if (s.maxTokens !== undefined) c.max_output_tokens = s.maxTokens;
    if (s.tools) c.tools = s.tools.map(({ name, description, parameters, strict }) => ({ type: "function", name, parameters, ...(description ? { description } : {}), ...(strict !== undefined ? { strict } : {}) }));
    if (choice !== undefined) c.tool_choice = typeof choice === "string" ? choice : { type: "function", name: choice.name };
    if (s.disableParallel) c.parallel_tool_calls = false;
    if (s.effort !== undefined || s.budget !== undefined) c.reasoning = { ...(s.effort ? { effort: s.effort } : {}), ...(s.budget !== undefined ? { enabled: true, max_tokens: s.budget } : {}) };
    if (s.schema) c.text = { format: { type: "json_schema", ...s.schema } };
  } else {
    if (s.maxTokens !== undefined) c.max_tokens = s.maxTokens;
    if (s.tools) c.tools = s.tools.map(({ name, description, parameters, strict }) => ({ name, input_schema: parameters, ...(description ? { description } : {}), ...(strict !== undefined ? { strict } : {}) }));
    if (choice !== undefined) {
      const base = typeof choice === "string" ? { type: { auto: "auto", none: "none", required: "any" }[choice] } : { type: "tool", name: choice.name };
      c.tool_choice = s.disableParallel ? { ...base, disable_parallel_tool_use: true } : base;
    }
    if (s.stop) c.stop_sequences = s.stop;
    if (s.budget !== undefined) c.thinking = { type: "enabled", budget_tokens: s.budget };
    if (s.effort || s.schema) c.output_config = { ...(s.effort ? { effort: s.effort } : {}), ...(s.schema ? { format: { type: "json_schema", schema: s.schema.schema } } : {}) };
  }
  return c;
}

/** What both formats can say: Responses has no stop sequences; Anthropic names no output schema. */
function common(s: Spec, a: InboundFormat, b: InboundFormat): Spec {
  const out = { ...s };
  if (a === "openai-responses" || b === "openai-responses") delete out.stop;
  if ((a === "anthropic-messages" || b === "anthropic-messages") && out.schema) out.schema = { ...out.schema, name: "output" };
  return out;
}

function withContent(format: InboundFormat, config: Record<string, unknown>): Record<string, unknown> {
  if (format === "openai-responses") return { ...config, input: "hi" };
  return { ...config, messages: [{ role: "user", content: "hi" }] };
}

const FIELDS = ["model", "maxOutputTokens", "temperature", "tools", "toolChoice", "parallelToolCalls", "stop", "reasoning", "responseFormat"] as const;

function decoded(format: InboundFormat, config: Record<string, unknown>) {
  const body = withContent(format, config);
  const error = Value.Errors(SCHEMAS[format], body).First();
  if (error) throw new Error(`${format} body invalid at ${error.path}: ${error.message} in ${JSON.stringify(body)}`);
  const ir = inboundCodecs[format].decodeRequest(body) as unknown as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((f) => ir[f] !== undefined).map((f) => [f, ir[f]]));
}

const toolNames = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,9}$/), { minLength: 1, maxLength: 3 });
const specArb: fc.Arbitrary<Spec> = fc
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
      spec.tools = r.names.map((name) => ({ name, parameters: { type: "object", properties: { q: { type: "string" } } }, ...(r.description ? { description: r.description } : {}), ...(r.strict !== undefined ? { strict: r.strict } : {}) }));
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

describe("preset config translation", () => {
  for (const source of FORMATS) {
    for (const target of FORMATS) {
      test(`${source} config used from ${target} decodes like the native ${target} config`, () => {
        fc.assert(
          fc.property(specArb, (spec) => {
            const s = common(spec, source, target);
            expect(decoded(target, presetConfigFor(configFor(source, s), target))).toEqual(decoded(target, configFor(target, s)));
          }),
          { numRuns: 100 },
        );
      });
    }
  }

  test("same-format configs pass through unchanged", () => {
    const chat = { model: "m", temperature: 0.2, seed: 3, logit_bias: { "1": 2 }, reasoning_effort: "low", stop: "x" };
    expect(presetConfigFor(chat, "openai-chat")).toEqual(chat);
    const responses = { model: "m", max_output_tokens: 5, truncation: "auto", include: ["reasoning.encrypted_content"], text: { verbosity: "low" } };
    expect(presetConfigFor(responses, "openai-responses")).toEqual(responses);
    const messages = { model: "m", max_tokens: 5, speed: "fast", context_management: { edits: [] }, fallbacks: [{ model: "n" }], top_k: 3 };
    expect(presetConfigFor(messages, "anthropic-messages")).toEqual({ model: "m", max_tokens: 5, speed: "fast", context_management: { edits: [] }, models: ["n"], top_k: 3 });
  });

  test("fields with no equivalent are dropped for the closed Responses and Messages schemas", () => {
    const chat = { model: "m", seed: 3, stop: ["x"], logit_bias: { "1": 2 }, max_completion_tokens: 9, verbosity: "high" };
    expect(presetConfigFor(chat, "openai-responses")).toEqual({ model: "m", max_output_tokens: 9, text: { verbosity: "high" } });
    expect(presetConfigFor(chat, "anthropic-messages")).toEqual({ model: "m", max_tokens: 9, stop_sequences: ["x"] });
  });

  test("chat string stop, reasoning switches and effort names map onto Anthropic's", () => {
    expect(presetConfigFor({ stop: "END" }, "anthropic-messages")).toEqual({ stop_sequences: ["END"] });
    expect(presetConfigFor({ reasoning: { enabled: false } }, "anthropic-messages")).toEqual({ thinking: { type: "disabled" } });
    expect(presetConfigFor({ reasoning_effort: "none" }, "anthropic-messages")).toEqual({ thinking: { type: "disabled" } });
    expect(presetConfigFor({ reasoning: { enabled: true } }, "anthropic-messages")).toEqual({ thinking: { type: "adaptive" } });
    expect(presetConfigFor({ reasoning_effort: "minimal" }, "anthropic-messages")).toEqual({ output_config: { effort: "low" } });
    expect(presetConfigFor({ thinking: { type: "adaptive" } }, "openai-chat")).toEqual({ reasoning: { enabled: true } });
    expect(presetConfigFor({ thinking: { type: "disabled" } }, "openai-responses")).toEqual({ reasoning: { enabled: false } });
  });

  test("parallel_tool_calls false without a tool choice becomes Anthropic auto without parallel use", () => {
    expect(presetConfigFor({ parallel_tool_calls: false }, "anthropic-messages")).toEqual({ tool_choice: { type: "auto", disable_parallel_tool_use: true } });
    expect(presetConfigFor({ parallel_tool_calls: true, tool_choice: "none" }, "anthropic-messages")).toEqual({ tool_choice: { type: "none" } });
  });

  test("server tools cross unchanged", () => {
    const tools = [{ type: "openrouter:web_search", parameters: { max_results: 3 } }];
    for (const target of FORMATS) expect(presetConfigFor({ tools }, target).tools).toEqual(tools);
  });
});
