import type { ApiKindName } from "../../config-schema";
import type { UpstreamApi } from "../upstream-api";
import { anthropicMessagesApi } from "./anthropic-messages";
import { azureOpenaiApi } from "./azure-openai";
import { bedrockApi } from "./bedrock";
import { geminiApi } from "./gemini";
import { openaiChatApi } from "./openai-chat";
import { openaiResponsesApi } from "./openai-responses";
import { vertexApi } from "./vertex";

/** Every upstream API of the completions and embeddings operations, by `providers[].api`. */
export const upstreamApis: Readonly<Record<ApiKindName, UpstreamApi>> = {
  "openai-chat": openaiChatApi,
  "openai-responses": openaiResponsesApi,
  "anthropic-messages": anthropicMessagesApi,
  "azure-openai": azureOpenaiApi,
  bedrock: bedrockApi,
  gemini: geminiApi,
  vertex: vertexApi,
};
