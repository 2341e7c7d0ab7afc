import { anthropicUpstream } from "../../formats/anthropic-messages";
import { jsonHeaders, type UpstreamApi } from "../upstream-api";

/** The Messages API version header Anthropic requires (https://docs.anthropic.com/en/api/versioning). */
export const ANTHROPIC_VERSION = "2023-06-01";

/** Anthropic's Messages API: the key in x-api-key; no embeddings. */
export const anthropicMessagesApi: UpstreamApi = {
  format: () => "anthropic-messages",
  codec: () => anthropicUpstream,
  completionUrl: (provider) => `${provider.baseUrl}/messages`,
  cachesImplicitly: false,
  headers: (provider, credential, call) => ({ ...jsonHeaders(provider, call.stream), "x-api-key": credential, "anthropic-version": ANTHROPIC_VERSION }),
};
