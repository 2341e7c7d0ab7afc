import type { IRResponseFormat, IRTool, IRToolChoice } from "../../ir/types";
import type { EchoedToolBody, ResponsesResult } from "./schema";

// Responses function tools are flat (`{type, name, parameters}`), unlike Chat's nested `function`.

/**
 * What OpenAI is sent. Its Responses API treats an absent `strict` as true and then rejects schemas
 * that are not strict-compatible, so tools that never asked for strictness (every Chat or
 * Anthropic client's) must say false explicitly.
 */
export function encodeTools(tools: IRTool[]): Array<Record<string, unknown>> {
  return tools.map((tool) => {
    const encoded: Record<string, unknown> = { type: "function", name: tool.name };
    if (tool.description !== undefined) encoded.description = tool.description;
    encoded.parameters = tool.parameters ?? { type: "object", properties: {} };
    encoded.strict = tool.strict ?? false;
    return encoded;
  });
}

/** The request's tools as the response object reports them. */
export function echoTools(tools: IRTool[]): EchoedToolBody[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description ?? null,
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? null,
  }));
}

export function encodeToolChoice(choice: IRToolChoice): ResponsesResult["tool_choice"] {
  return choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
}

export function encodeResponseFormat(format: IRResponseFormat): ResponsesResult["text"]["format"] {
  if (format.type !== "json_schema") return { type: format.type };
  return {
    type: "json_schema",
    name: format.name,
    schema: format.schema,
    ...(format.description !== undefined ? { description: format.description } : {}),
    ...(format.strict !== undefined ? { strict: format.strict } : {}),
  };
}
