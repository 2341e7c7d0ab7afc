import type { OutboundContext } from "../../outbound/policy";
import { outboundOptionsOf } from "../../outbound/policy";
import type { VideoAdapter, VideoApi } from "./adapter";
import { falQueueAdapter } from "./fal-queue";
import { createGeminiVeoAdapter } from "./gemini-veo";
import { openAiVideosAdapter } from "./openai-videos";
import { replicateAdapter } from "./replicate";

/** The adapter of every video API; Veo fetches frame images through the outbound client, under the caller-URL rules. */
export function videoAdapters(ctx: OutboundContext): Record<VideoApi, VideoAdapter> {
  return {
    "openai-videos": openAiVideosAdapter,
    "fal-queue": falQueueAdapter,
    replicate: replicateAdapter,
    "gemini-veo": createGeminiVeoAdapter({ outbound: outboundOptionsOf(ctx) }),
  };
}
