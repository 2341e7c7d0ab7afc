import type { ProviderEntry } from "../../catalog/types";
import type { ApiKindName } from "../../config-schema";
import { loadJose } from "../google/access-token";
import type { UpstreamApi } from "../upstream-api";
import { anthropicMessagesApi } from "./anthropic-messages";
import { azureOpenaiApi } from "./azure-openai";
import { bedrockApi, loadBedrockLibraries } from "./bedrock";
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

/**
 * Starts loading the libraries that only some APIs need (Bedrock's signer and event-stream codec,
 * the JWT library of Vertex's token grants) when a provider of that API has the gateway's own
 * credential, so its first call does not wait for them. A gateway without one never loads them,
 * unless a workspace's BYOK key calls such an API: then its first call does.
 */
export function warmUpstreamLibraries(providers: readonly ProviderEntry[]): void {
  for (const p of providers) {
    if (p.apiKey === undefined) continue;
    if (p.api === "bedrock") void loadBedrockLibraries();
    if (p.api === "vertex") void loadJose();
  }
}
