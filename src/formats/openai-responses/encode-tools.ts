import type { IRResponseFormat, IRTool, IRToolChoice } from "../../ir/types";

/** Responses function tools are flat (`{type, name, parameters}`), unlike Chat's nested `function`. */

/**
 * "upstream": what OpenAI is sent. Its Responses API treats an absent `strict` as true and then
 * rejects schemas that are not strict-compatible, so tools that never asked for strictness
 * (every Chat or Anthropic client's) must say false explicitly.
 * "echo": the request's tools as the response object reports them.
 */
export function encodeTools(tools: IRTool[], mode: "upstream" | "echo"): Array<Record<string, unknown>> {
  return tools.map((tool) => {
    if (mode === "echo") {
      return {
        type: "function",
        name: tool.name,
        description: tool.description ?? null,
        parameters: tool.parameters ?? null,
        strict: tool.strict ?? null,
      };
    }
    const encoded: Record<string, unknown> = { type: "function", name: tool.name };
    if (tool.description !== undefined) encoded.description = tool.description;
    encoded.parameters = tool.parameters ?? { type: "object", properties: {} };
    encoded.strict = tool.strict ?? false;
    return encoded;
  });
}

export function encodeToolChoice(choice: IRToolChoice): string | Record<string, unknown> {
  return choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
}

export function encodeResponseFormat(format: IRResponseFormat): Record<string, unknown> {
  if (format.type !== "json_schema") return { type: format.type };
  const encoded: Record<string, unknown> = { type: "json_schema", name: format.name, schema: format.schema };
  if (format.description !== undefined) encoded.description = format.description;
  if (format.strict !== undefined) encoded.strict = format.strict;
  return encoded;
}
