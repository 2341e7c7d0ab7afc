import { openaiResponsesUpstream } from "../../formats/openai-responses";
import { jsonHeaders, type UpstreamApi } from "../upstream-api";

/** OpenAI's Responses API. */
export const openaiResponsesApi: UpstreamApi = {
  format: () => "openai-responses",
  codec: () => openaiResponsesUpstream,
  completionUrl: (provider) => `${provider.baseUrl}/responses`,
  embeddingsUrl: (provider) => `${provider.baseUrl}/embeddings`,
  cachesImplicitly: true,
  headers: (provider, credential, call) => ({ ...jsonHeaders(provider, call.stream), authorization: `Bearer ${credential}` }),
};
