import type { IRRequest, IRResponseFormat, IRTool, IRToolChoice } from "../../ir/types";
import { encodeContents, encodeSystemInstruction } from "./encode-messages";
import { encodeThinkingConfig } from "./thinking-config";

/** Gemini takes at most five stop sequences (https://ai.google.dev/api/generate-content#GenerationConfig). */
const MAX_STOP_SEQUENCES = 5;

/** Tools as functionDeclarations; the JSON schema goes as `parametersJsonSchema`, which takes JSON Schema as clients write it. */
function functionDeclaration(tool: IRTool): Record<string, unknown> {
  const declaration: Record<string, unknown> = { name: tool.name };
  if (tool.description !== undefined) declaration.description = tool.description;
  if (tool.parameters !== undefined) declaration.parametersJsonSchema = tool.parameters;
  return declaration;
}

/** tool_choice → toolConfig.functionCallingConfig (https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes). */
function toolConfig(choice: IRToolChoice | undefined): Record<string, unknown> | undefined {
  if (!choice) return undefined;
  if (choice.type === "tool") return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.name] } };
  const mode = choice.type === "none" ? "NONE" : choice.type === "required" ? "ANY" : "AUTO";
  return { functionCallingConfig: { mode } };
}

/** response_format → a JSON answer, held to the client's schema when it gave one. */
function responseFormat(format: IRResponseFormat | undefined): Record<string, unknown> {
  if (format?.type === "json_schema") return { responseMimeType: "application/json", responseJsonSchema: format.schema };
  if (format?.type === "json_object") return { responseMimeType: "application/json" };
  return {};
}

function generationConfig(req: IRRequest, model: string): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (req.maxOutputTokens !== undefined) config.maxOutputTokens = req.maxOutputTokens;
  if (req.temperature !== undefined) config.temperature = req.temperature;
  if (req.topP !== undefined) config.topP = req.topP;
  if (req.topK !== undefined) config.topK = req.topK;
  if (req.stop && req.stop.length > 0) config.stopSequences = req.stop.slice(0, MAX_STOP_SEQUENCES);
  if (req.seed !== undefined) config.seed = req.seed;
  if (req.presencePenalty !== undefined) config.presencePenalty = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) config.frequencyPenalty = req.frequencyPenalty;
  if (req.logprobs) {
    config.responseLogprobs = true;
    if (req.topLogprobs !== undefined) config.logprobs = req.topLogprobs;
  }
  Object.assign(config, responseFormat(req.responseFormat));
  const thinking = encodeThinkingConfig(req, model);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/**
 * IR request → a generateContent body. The model and the stream switch are in the URL, not the
 * body (providers/apis/gemini.ts); gateway-only fields stay behind.
 */
export function encodeRequest(req: IRRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const system = encodeSystemInstruction(req.messages);
  if (system) body.systemInstruction = system;
  body.contents = encodeContents(req.messages);
  if (req.tools && req.tools.length > 0) {
    body.tools = [{ functionDeclarations: req.tools.map(functionDeclaration) }];
    const config = toolConfig(req.toolChoice);
    if (config) body.toolConfig = config;
  }
  const config = generationConfig(req, upstreamModel);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}
