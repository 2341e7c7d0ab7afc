import { openaiChatUpstream } from "../../formats/openai-chat";
import { jsonHeaders, type UpstreamApi } from "../upstream-api";

/** OpenAI's Chat Completions and every server that speaks it (vLLM, SGLang, Ollama, most hosted APIs). */
export const openaiChatApi: UpstreamApi = {
  format: () => "openai-chat",
  codec: () => openaiChatUpstream,
  completionUrl: (provider) => `${provider.baseUrl}/chat/completions`,
  embeddingsUrl: (provider) => `${provider.baseUrl}/embeddings`,
  cachesImplicitly: true,
  headers: (provider, credential, call) => ({ ...jsonHeaders(provider, call.stream), authorization: `Bearer ${credential}` }),
};
