import type { Destination, ObservedGeneration } from "../contract";
import { oncePer } from "../once-per";
import type { Attributes } from "./attribute-value";

/**
 * The content of a generation (prompt, completion, tool definitions) in the names receivers read:
 * semconv's structured `gen_ai.input.messages` / `gen_ai.output.messages` and OpenRouter's
 * `gen_ai.prompt` / `gen_ai.completion`, all as JSON strings. Absent when privacy mode removed it;
 * multimodal parts keep only their type.
 */

type Part = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The input and output a destination may see: none under privacy mode, whatever the pipeline handed over. */
export function contentOf(g: ObservedGeneration, d: Destination): { input: ObservedGeneration["input"]; output: ObservedGeneration["output"] } {
  return d.privacyMode ? { input: null, output: null } : { input: g.input, output: g.output };
}

function partsOf(content: unknown): Part[] {
  if (typeof content === "string") return [{ type: "text", content }];
  if (!Array.isArray(content)) return content === null || content === undefined ? [] : [{ type: "text", content: JSON.stringify(content) }];
  return content.map((item): Part => {
    if (typeof item === "string") return { type: "text", content: item };
    if (isObject(item) && typeof item.text === "string") return { type: "text", content: item.text };
    return { type: isObject(item) && typeof item.type === "string" ? item.type : "unknown" };
  });
}

function toolCallPart(call: unknown): Part {
  if (!isObject(call)) return { type: "tool_call" };
  const fn = isObject(call.function) ? call.function : call;
  return { type: "tool_call", id: call.id ?? null, name: fn.name ?? null, arguments: fn.arguments ?? fn.input ?? null };
}

/** Request messages of any inbound format as semconv's `[{role, parts}]`. */
export function semconvInputMessages(messages: unknown): unknown[] {
  if (!Array.isArray(messages)) return [];
  return messages.map((m) => {
    if (!isObject(m)) return { role: "user", parts: partsOf(m) };
    const parts = partsOf(m.content);
    if (Array.isArray(m.tool_calls)) parts.push(...m.tool_calls.map(toolCallPart));
    if (m.role === "tool") return { role: "tool", parts: [{ type: "tool_call_response", id: m.tool_call_id ?? null, response: m.content ?? null }] };
    return { role: typeof m.role === "string" ? m.role : "user", parts };
  });
}

export function semconvOutputMessages(output: NonNullable<ObservedGeneration["output"]>, finishReason: string | null): unknown[] {
  const parts: Part[] = output.text === "" ? [] : [{ type: "text", content: output.text }];
  parts.push(...output.toolCalls.map(toolCallPart));
  return [{ role: "assistant", parts, finish_reason: finishReason ?? "stop" }];
}

/** OpenRouter's `gen_ai.completion`: the answer as one assistant message. */
export function completionMessage(output: NonNullable<ObservedGeneration["output"]>): unknown[] {
  return [{ role: "assistant", content: output.text, ...(output.toolCalls.length > 0 ? { tool_calls: output.toolCalls } : {}) }];
}

const NO_CONTENT: Readonly<Attributes> = Object.freeze({});

/**
 * Content attributes of the generation span (none for what was not kept; no output for
 * embeddings). A destination that may see the content gets the generation's own, so they are
 * serialised once however many destinations take it: the JSON texts are most of an export's bytes.
 */
export function contentAttributes(g: ObservedGeneration, d: Destination): Readonly<Attributes> {
  const { input, output } = contentOf(g, d);
  return input === null && output === null ? NO_CONTENT : serialisedContent(g);
}

const serialisedContent = oncePer((g: ObservedGeneration): Readonly<Attributes> => {
  const { input, output } = g;
  const attributes: Attributes = {};
  if (input) {
    attributes["gen_ai.prompt"] = JSON.stringify(input.messages ?? null);
    attributes["gen_ai.input.messages"] = JSON.stringify(semconvInputMessages(input.messages));
    if (input.tools !== null && input.tools !== undefined) attributes["gen_ai.tool.definitions"] = JSON.stringify(input.tools);
  }
  if (output && g.operation !== "embeddings") {
    attributes["gen_ai.completion"] = JSON.stringify(completionMessage(output));
    attributes["gen_ai.output.messages"] = JSON.stringify(semconvOutputMessages(output, g.finishReason));
  }
  return Object.freeze(attributes);
});
