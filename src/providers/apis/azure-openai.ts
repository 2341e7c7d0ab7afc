import type { ProviderEntry } from "../../catalog/types";
import { AZURE_DEFAULT_API_VERSION } from "../../config-schema";
import { openaiChatUpstream } from "../../formats/openai-chat";
import type { UpstreamCodec } from "../../ir/codec";
import { jsonHeaders, type UpstreamApi } from "../upstream-api";
import { azureErrorMessage } from "./azure-errors";

/**
 * Azure OpenAI's deployments API: Chat Completions bodies (so a Chat client's answer passes
 * through), sent to the deployment the endpoint's model names, with the provider's api-version
 * and the key in the `api-key` header.
 * https://learn.microsoft.com/azure/ai-foundry/openai/reference
 */
const azureChatCodec: UpstreamCodec = { ...openaiChatUpstream, errorMessage: azureErrorMessage };

function deploymentUrl(provider: ProviderEntry, deployment: string, operation: string): string {
  const version = provider.azure?.apiVersion ?? AZURE_DEFAULT_API_VERSION;
  return `${provider.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}/${operation}?api-version=${encodeURIComponent(version)}`;
}

export const azureOpenaiApi: UpstreamApi = {
  format: () => "openai-chat",
  codec: () => azureChatCodec,
  completionUrl: (provider, deployment) => deploymentUrl(provider, deployment, "chat/completions"),
  embeddingsUrl: (provider, deployment) => deploymentUrl(provider, deployment, "embeddings"),
  cachesImplicitly: true,
  headers: (provider, credential, call) => ({ ...jsonHeaders(provider, call.stream), "api-key": credential }),
};
