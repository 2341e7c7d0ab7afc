import type { ProviderEntry } from "../../catalog/types";
import { anthropicOnVertexUpstream } from "../../formats/anthropic-messages/vertex-body";
import { geminiUpstream } from "../../formats/gemini";
import { DEFAULT_VERTEX_LOCATION, readServiceAccount } from "../../google-cloud";
import { accessToken, forgetAccessToken } from "../google/access-token";
import { jsonHeaders, type UpstreamApi } from "../upstream-api";

/**
 * Vertex AI: Google's models through `publishers/google` (generateContent bodies), Anthropic's
 * through `publishers/anthropic` (Messages bodies, rawPredict). The credential is a service-account
 * key file's JSON; calls carry an access token exchanged for it (google/access-token.ts).
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference,
 * https://docs.anthropic.com/en/api/claude-on-vertex-ai
 */

const isClaude = (model: string) => /^claude/i.test(model);

/**
 * The project a call goes to: the provider's own credential calls the provider's project (its
 * account's when the provider names none); a workspace's BYOK account calls its own project.
 */
function projectOf(provider: ProviderEntry, credential: string): string {
  const read = readServiceAccount(credential);
  const own = read.ok ? read.account.projectId : undefined;
  const configured = provider.vertex?.project;
  const project = credential === provider.apiKey ? (configured ?? own) : (own ?? configured);
  // an account without a project, on a provider without one: Vertex answers 404 naming the path
  return project ?? "-";
}

export const vertexApi: UpstreamApi = {
  format: (model) => (isClaude(model) ? "anthropic-messages" : "gemini"),
  codec: (model) => (isClaude(model) ? anthropicOnVertexUpstream : geminiUpstream),
  completionUrl(provider, model, stream, credential) {
    const location = provider.vertex?.location ?? DEFAULT_VERTEX_LOCATION;
    const publishers = `${provider.baseUrl}/projects/${projectOf(provider, credential)}/locations/${location}/publishers`;
    if (isClaude(model)) return `${publishers}/anthropic/models/${model}:${stream ? "streamRawPredict" : "rawPredict"}`;
    return `${publishers}/google/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
  },
  cachesImplicitly: true,
  headers: async (provider, credential, call, signal) => ({
    ...jsonHeaders(provider, call.stream),
    authorization: `Bearer ${await accessToken(credential, signal)}`,
  }),
  credentialRefused(_provider, credential) {
    forgetAccessToken(credential);
    return true;
  },
  checkCredential(key) {
    const read = readServiceAccount(key);
    return read.ok ? { ok: true, urls: [read.account.tokenUri] } : { ok: false, problem: `is not a service-account key file: it ${read.problem}` };
  },
};
