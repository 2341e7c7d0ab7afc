import { errorReasons, geminiUpstream } from "../../formats/gemini";
import { jsonHeaders, type UpstreamApi } from "../upstream-api";

/**
 * The Gemini API (Google AI Studio): `POST {base}/models/{model}:generateContent`, streamed as
 * `:streamGenerateContent?alt=sse` (https://ai.google.dev/api/generate-content). The key goes in
 * the x-goog-api-key header, never in the URL, where access logs would keep it.
 */
export const geminiApi: UpstreamApi = {
  format: () => "gemini",
  codec: () => geminiUpstream,
  completionUrl: (provider, model, stream) => `${provider.baseUrl}/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
  cachesImplicitly: true,
  headers: (provider, credential, call) => ({ ...jsonHeaders(provider, call.stream), "x-goog-api-key": credential }),
  // AI Studio answers an unknown or revoked key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID
  errorStatus: (status, body) => (status === 400 && errorReasons(body).includes("API_KEY_INVALID") ? 401 : status),
  checkCredential: (key) => (/^\S+$/.test(key) ? { ok: true, urls: [] } : { ok: false, problem: "is not an API key (it has spaces or line breaks)" }),
};
